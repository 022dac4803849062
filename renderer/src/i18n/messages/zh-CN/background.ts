import type { Translation } from '../../catalog';
import type { backgroundMessages as en } from '../background';

/** Typed against the English file: a missing or extra key fails the type check. */
export const backgroundMessages: Translation<typeof en> = {
  'background.title': '后台任务',
  'background.running': '{count} 个运行中',
  'background.empty': '没有在后台运行的任务。智能体不等待而启动的长命令会显示在这里，并附带最新的输出。',
  'background.callLabel': '{name}：{summary}',
  'background.cancel': '取消',
  'background.stopping': '正在停止…',
  'background.cancelFailed': '无法取消：{message}',
  'background.exitCode': '退出码 {code}',
  'background.output': '输出',
  'background.outputLoading': '正在读取输出…',
  'background.tailNote': '较早的输出已省略，以下是最新的几行。',
  'background.waiting.title': '等待你处理',
  'background.waiting.count': '{count} 项等待你处理',
  'background.awaitingApproval': '它的脚本发起的一个调用正在等待你批准，见上方。',
  'background.tools.title': '已加载的工具',
  'background.tools.empty': '没有已加载的工具。智能体可以从项目中的文件加载工具。',
  'background.tools.ready': '就绪',
  'background.tools.crashed': '已崩溃',
  'background.tools.local': '在 Cairn 中运行',
  'background.tools.process': '在工作进程中运行（pid {pid}）',
  'background.tools.processNoPid': '在工作进程中运行',
  'background.tools.error': '错误：{message}',
  'background.tools.methods': '{name} 的方法',
  'background.tools.batch': '批量',
  'background.tools.stream': '流式',
};
