import type { Translation } from '../../catalog';
import type { codeCardMessages as en } from '../code-card';

/** Typed against the English file: a missing or extra key fails the type check. */
export const codeCardMessages: Translation<typeof en> = {
  'tool.code.code': '代码',
  'tool.code.line': '第 {line} 行',
  'tool.code.traceback': '调用栈',
  'tool.code.stdout': '输出',
  'tool.code.stderr': '错误输出（stderr）',
  'tool.code.value': '值',
  'tool.code.displays': '显示内容',
  'tool.code.ranIn': '运行用时 {time}',
  'tool.code.image': '代码生成的图像（{type}）',
  'tool.code.imageFailed': '无法加载图像：{message}',
  'tool.code.html': 'HTML 输出（不运行脚本，不访问网络）',
  'tool.code.htmlFailed': '无法加载 HTML 输出：{message}',
  'tool.code.download': '下载',
  'tool.code.downloadLabel': '下载 {name}',
  'tool.code.downloadFailed': '无法下载 {name}：{message}',
  'tool.code.serverOnly': '已保存在服务器上：{path}',
  'tool.code.stateLost': '内核已重启，变量已丢失：{reason}',
  'tool.code.limit.active_time': '运行 {time}后被停止（{action}）。',
  'tool.code.limit.input_idle': '等待输入 {time}后被停止（{action}）。',
  'tool.code.limit.interrupted': '已中断',
  'tool.code.limit.killed_and_restarted': '内核已重启',
};
