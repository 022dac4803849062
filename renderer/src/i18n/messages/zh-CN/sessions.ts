import type { Translation } from '../../catalog';
import type { sessionMessages as en } from '../sessions';

/** Typed against the English file: a missing or extra key fails the type check. */
export const sessionMessages: Translation<typeof en> = {
  'branch.fromHere': '从这里另开会话',
  'branch.fromHereLabel': '从第 {ordinal} 回合另开一个新会话',
  'branch.failed': '无法另开会话：{message}',
  'branch.from': '另开自 {title} · 第 {ordinal} 回合',
  'branch.fromLabel': '打开 {title} 的第 {ordinal} 回合',
  'branch.fromGone': '另开自一个已不存在的会话',
  'branch.count.one': '1 个另开的会话',
  'branch.count.other': '{count} 个另开的会话',
  'branch.menu': '从此会话另开的会话',
  'branch.item': '{title} · 自第 {ordinal} 回合',
  'session.actions': '会话操作',
  'session.exportMd': '导出为 Markdown',
  'session.exportJson': '导出为 JSON',
  'session.import': '导入会话…',
  'session.exportFailed': '无法导出会话：{message}',
  'session.importFailed': '无法导入 {file}：{message}',
  'session.importNotJson': '它不是 JSON。请选择用“导出为 JSON”生成的文件。',
  'cost.turn': '≈ {cost}（估算）',
  'cost.label': '根据模型配置中设置的价格估算',
  'cost.session': '{tokens} 个令牌 · ≈ {cost}（估算）',
  'cost.sessionTokens': '{tokens} 个令牌',
  'cost.sessionLabel': '此会话所有回合的令牌数及估算费用',
};
