import type { Translation } from '../../catalog';
import type { forkMessages as en } from '../forks';

/** Typed against the English file: a missing or extra key fails the type check. */
export const forkMessages: Translation<typeof en> = {
  'fork.group.title': '分支',
  'fork.group.count': '{count}',
  'fork.group.label': '本回合派生的分支',
  'fork.status.queued': '排队中',
  'fork.status.running': '运行中',
  'fork.status.completed': '完成',
  'fork.status.failed': '失败',
  'fork.status.cancelled': '已取消',
  'fork.status.interrupted': '已中断',
  'fork.open': '打开',
  'fork.openLabel': '打开分支“{task}”',
  'fork.response.more': '展开全部',
  'fork.response.less': '收起',
  'fork.response.failed': '失败：{message}',
  'fork.banner': '{parent} 的分支 · 只读',
  'fork.bannerNoParent': '分支 · 只读',
  'fork.banner.hint': '它的提问和审批在父会话中进行。',
  'fork.banner.back': '返回父会话',
  'fork.question.from': '来自分支：{name}',
};
