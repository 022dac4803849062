import type { Translation } from '../../catalog';
import type { toolCardMessages as en } from '../tool-cards';

/** Typed against the English file: a missing or extra key fails the type check. */
export const toolCardMessages: Translation<typeof en> = {
  'tool.summary.in': '在 {path} 中查找 {pattern}',
  'tool.summary.line': '1 行',
  'tool.summary.lines': '{count} 行',
  'tool.summary.everyOccurrence': '{counts}，全部替换',
  'tool.summary.range': '第 {from}–{to} 行',
  'tool.summary.from': '从第 {from} 行起',
  'tool.summary.image': '图像',
  'tool.opening': '正在打开…',
  'part.loadFailed': '窗口的这一部分无法加载：{message}',
  'part.reload': '重新加载',

  'tool.background': '后台',
  'tool.progress.fraction': '{progress} / {total}',
  'tool.progress.count': '已完成 {count}',
  'tool.backgroundRunning':
    '在后台运行：智能体没有等待它，继续工作。最新的输出见侧边面板（Ctrl/Cmd+J）中的“后台任务”。',
  'tool.backgroundEnded': '曾在后台运行，智能体当时继续工作。',
  'tool.fromScript': '由调用 {id} 的脚本启动',
  'tool.nested': '{name} 的脚本发起的调用',
};
