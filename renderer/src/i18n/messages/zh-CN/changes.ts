import type { Translation } from '../../catalog';
import type { changesMessages as en } from '../changes';

/** Typed against the English file: a missing or extra key fails the type check. */
export const changesMessages: Translation<typeof en> = {
  'changes.count.one': '改动了 1 个文件',
  'changes.count.other': '改动了 {count} 个文件',
  'changes.listLabel': '改动的文件',
  'changes.loadFailed': '无法读取改动：{message}',
  'changes.revert': '撤销这些文件改动',
  'changes.revertTitle': '把项目文件恢复到第 {ordinal} 回合之前',
  'changes.revert.confirm':
    '把项目文件恢复到第 {ordinal} 回合之前的样子？这会撤销本回合及之后所有回合的文件改动。对话会保留。',
  'changes.revert.confirmButton': '撤销文件改动',
  'changes.revert.working': '正在恢复…',
  'changes.revert.conflict':
    '以下文件在 Cairn 记录之后又被改动过（可能是你，也可能是别的程序）。恢复会覆盖这些改动：',
  'changes.revert.force': '仍然恢复',
  'changes.revert.failed': '无法恢复文件：{message}',
  'changes.revert.close': '关闭',
  'changes.revertCard.title': '文件已恢复到第 {ordinal} 回合之前',
  'changes.revertCard.titleUnknown': '文件已恢复',
  'changes.revertCard.undo': '撤销这次恢复',
  'changes.revertCard.undoConfirm':
    '撤销这次恢复？项目文件会回到恢复之前的样子，之后回合的文件改动也会一并撤销。对话会保留。',
  'changes.revertCard.notRestored': '未能恢复：',
  'changes.session.menu': '本会话的改动',
};
