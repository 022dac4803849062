import type { AreaMessages } from '../catalog';

/** Code mode: the session's mode in the header, and each code step's card in the conversation. */
const en = {
  'session.mode': 'Mode',
  'session.mode.tools': 'Tools',
  'session.mode.code': 'Code',
  'session.mode.tools.hint': 'The agent calls tools one at a time.',
  'session.mode.code.hint':
    "The agent acts by writing Python that runs in the session's kernel and calls the tools as functions.",
  'session.mode.running': 'The mode can change once the running turn ends.',
  'session.mode.error': 'Could not switch the mode: {message}',
  'codeStep.label': 'Code step',
  'codeStep.output': 'Output',
  'codeStep.error': 'Error',
  'codeStep.noOutput': 'No output.',
  'codeStep.waiting': 'Running…',
  'codeStep.images': 'Images',
};

export const codeModeMessages: AreaMessages<keyof typeof en> = {
  en,
  'zh-CN': {
    'session.mode': '模式',
    'session.mode.tools': '工具',
    'session.mode.code': '代码',
    'session.mode.tools.hint': '智能体逐个调用工具。',
    'session.mode.code.hint': '智能体编写 Python 代码来行动：代码在会话的内核中运行，并以函数形式调用工具。',
    'session.mode.running': '当前轮次结束后才能切换模式。',
    'session.mode.error': '无法切换模式：{message}',
    'codeStep.label': '代码步骤',
    'codeStep.output': '输出',
    'codeStep.error': '错误',
    'codeStep.noOutput': '无输出。',
    'codeStep.waiting': '运行中…',
    'codeStep.images': '图像',
  },
};
