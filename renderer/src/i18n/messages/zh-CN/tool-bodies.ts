import type { Translation } from '../../catalog';
import type { toolBodyMessages as en } from '../tool-bodies';

/** Typed against the English file: a missing or extra key fails the type check. */
export const toolBodyMessages: Translation<typeof en> = {
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
  'tool.mcp.progress': '进度',
  'tool.mcp.attachments': '图像和文件',
  'tool.mcp.loading': '正在加载图像和文件…',
  'tool.mcp.loadError': '无法加载图像和文件：{message}',
  'tool.mcp.image': '工具返回的图像 {number}',
  'tool.mcp.link': '链接',
  'tool.mcp.download': '下载 {name}',
  'tool.mcp.kind.image': '图像',
  'tool.mcp.kind.audio': '音频',
  'tool.mcp.kind.resource': '资源',
  'tool.stop.timeout': '调用超时，已连同它启动的一切一起停止。',
  'tool.stop.parent': '启动它的调用已结束，因此它已连同它启动的一切一起取消。',
  'tool.stop.sessionClosed': '它所在的会话已删除，因此该调用已连同它启动的一切一起取消。',
  'tool.stop.shutdown': '此调用运行时 Cairn 已停止，它已连同它启动的一切一起停止。',
  'tool.stop.cancelled': '调用已取消，它启动的一切都已停止。',
  'tool.mcp.plain': '此结果较长（{count} 个字符），以纯文本显示，未按 Markdown 排版。',
};
