import type { Translation } from '../../catalog';
import type { changedFileMessages as en } from '../changed-files';

/** Typed against the English file: a missing or extra key fails the type check. */
export const changedFileMessages: Translation<typeof en> = {
  'changes.status.added': '新增',
  'changes.status.modified': '修改',
  'changes.status.deleted': '删除',
  'changes.statsLabel': '新增 {additions} 行，删除 {deletions} 行',
  'changes.toggleDiff': '{path} 的差异',
  'changes.binary': '二进制文件，无差异可显示',
  'changes.tooLarge': '文件太大，无法显示',
  'changes.noDiff': '没有可显示的差异',
  'changes.emptyFile': '空文件',
  'changes.showAll': '显示全部 {count} 个',
  'changes.session.title': '本会话的改动',
  'changes.session.empty': '本会话没有记录到文件改动',
};
