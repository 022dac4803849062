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
  'tool.mcp.origin': 'MCP 服务器 {server}，工具 {tool}',
  'tool.mcp.attachments': '图像和文件',
  'tool.mcp.loading': '正在加载图像和文件…',
  'tool.mcp.loadError': '无法加载图像和文件：{message}',
  'tool.mcp.image': '工具返回的图像 {number}',
  'tool.mcp.link': '链接',
  'tool.mcp.download': '下载 {name}',
};
