import type { Translation } from '../../catalog';
import type { codeModeMessages as en } from '../code-mode';

/** Typed against the English file: a missing or extra key fails the type check. */
export const codeModeMessages: Translation<typeof en> = {
  'session.mode': '模式',
  'session.mode.tools': '工具',
  'session.mode.code': '代码',
  'session.mode.tools.hint': '智能体逐个调用工具。',
  'session.mode.code.hint': '智能体编写 Python 代码来行动：代码在会话的内核中运行，并以函数形式调用工具。',
  'session.mode.running': '当前轮次结束后才能切换模式。',
  'session.mode.error': '无法切换模式：{message}',
  'codeStep.label': '代码步骤',
};
