import type { AreaMessages } from '../catalog';

const en = {
  'tool.summary.in': '{pattern} in {path}',
  'tool.summary.line': '1 line',
  'tool.summary.lines': '{count} lines',
  'tool.summary.everyOccurrence': '{counts}, every occurrence',
  'tool.summary.range': 'lines {from}–{to}',
  'tool.summary.from': 'from line {from}',
  'tool.summary.image': 'image',
  'tool.opening': 'Opening…',
  'tool.error': 'Error',
  'tool.noArguments': 'No arguments',
  'tool.showAll': 'Show all',
  'tool.showAllLines': 'Show all ({omitted} more lines)',
  'tool.showAllLabel': 'Show all {total} lines',
  'tool.showLess': 'Show less',
  'tool.shell.command': 'Command',
  'tool.shell.exitCode': 'Exit code {code}',
  'tool.shell.signal': 'Stopped by {signal}',
  'tool.shell.timedOut': 'Timed out',
};

/** Every zh-CN string must exist, so a missing translation fails the type check. */
export const toolCardMessages: AreaMessages<keyof typeof en> = {
  en,
  'zh-CN': {
    'tool.summary.in': '在 {path} 中查找 {pattern}',
    'tool.summary.line': '1 行',
    'tool.summary.lines': '{count} 行',
    'tool.summary.everyOccurrence': '{counts}，全部替换',
    'tool.summary.range': '第 {from}–{to} 行',
    'tool.summary.from': '从第 {from} 行起',
    'tool.summary.image': '图像',
    'tool.opening': '正在打开…',
    'tool.error': '错误',
    'tool.noArguments': '没有参数',
    'tool.showAll': '全部显示',
    'tool.showAllLines': '全部显示（还有 {omitted} 行）',
    'tool.showAllLabel': '显示全部 {total} 行',
    'tool.showLess': '收起',
    'tool.shell.command': '命令',
    'tool.shell.exitCode': '退出码 {code}',
    'tool.shell.signal': '被 {signal} 终止',
    'tool.shell.timedOut': '超时',
  },
};
