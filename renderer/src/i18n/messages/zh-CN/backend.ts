import type { Translation } from '../../catalog';
import type { backendMessages as en } from '../backend';

/** Typed against the English file: a missing or extra key fails the type check. */
export const backendMessages: Translation<typeof en> = {
  'backend.title': '后端',
  'backend.mode': 'Cairn 运行于',
  'backend.mode.local': '这台电脑',
  'backend.mode.remote': '远程服务器：',
  'backend.source': '设置来源',
  'backend.source.local': 'Cairn 在这台电脑上自行启动的服务器',
  'backend.source.settings': '此处的设置（令牌保存在系统钥匙串中）',
  'backend.source.environment': '环境变量 CAIRN_BACKEND_URL 和 CAIRN_BACKEND_TOKEN',
  'backend.envNotice':
    '后端由 CAIRN_BACKEND_URL 和 CAIRN_BACKEND_TOKEN 设置，因此无法在此更改。请修改或取消这两个变量，然后重新启动 Cairn。',
  'backend.test': '测试后端',
  'backend.useLocal': '使用这台电脑',
  'backend.confirmLocal':
    '停止使用远程服务器，改为在这台电脑上运行 Cairn？窗口将重新加载；服务器上的项目和会话仍保留在服务器上。',
  'backend.switching': '正在切换…',
  'backend.error': '后端未更改：{message}',
  'backend.form.title': '使用远程服务器',
  'backend.form.titleChange': '使用另一台远程服务器',
  'backend.form.intro':
    '连接到另一台机器上用“cairn serve”启动的 Cairn 服务器。除这台电脑外，地址必须使用 https://。',
  'backend.form.url': '服务器地址',
  'backend.form.token': '访问令牌',
  'backend.form.tokenReplace': '更换服务器时请重新输入令牌',
  'backend.form.tokenHint': '保存在系统钥匙串中，不会再次显示。',
  'backend.form.submit': '连接到服务器',
  'backend.validation.url': '请输入服务器的完整地址，以 https:// 开头。',
  'backend.validation.token': '请输入服务器的访问令牌。',
  'backend.server.title': '服务器',
  'backend.server.connected': '已连接到',

  'check.title': '测试后端',
  'check.back': '返回设置',
  'check.intro': '按 Cairn 的使用方式检查服务器：',
  'check.step.health': '健康检查（不带令牌）',
  'check.step.capabilities': '功能（带令牌）',
  'check.step.about': '服务器信息',
  'check.step.websocket': '实时连接（WebSocket 登录）',
  'check.status.pending': '等待中',
  'check.status.running': '正在检查…',
  'check.status.ok': '正常',
  'check.status.failed': '失败',
  'check.status.skipped': '已跳过',
  'check.version': 'Cairn {version}',
  'check.latency': '{ms} 毫秒',
  'check.details': '详情：{message}',
  'check.skippedHint': '未运行，因为服务器没有响应健康检查。',
  'check.failure.unreachable':
    '无法连接到服务器。请检查地址、服务器是否在运行，以及两者之间的网络。如果该地址会重定向到别处，请使用最终地址：Cairn 从不跟随重定向。',
  'check.failure.redirect':
    '服务器返回了重定向。Cairn 从不跟随重定向，因此令牌不会被发送到其他地址：请使用服务器的最终地址。',
  'check.failure.not_cairn': '有程序响应了，但它不是 Cairn 服务器。请检查地址以及代理转发的路径。',
  'check.failure.token_rejected': '服务器拒绝了令牌。请使用服务器启动时的令牌。',
  'check.failure.websocket_refused':
    '实时连接被拒绝。服务器前面的代理必须转发 /api/ws 上的 WebSocket 升级请求。',
  'check.failure.error': '此步骤失败。',
  'check.summary.ok': '所有检查均已通过。',
  'check.summary.failed': '部分检查失败，详见上方。',
  'check.running': '正在检查…',
  'check.again': '重新运行',

  'backendProblem.title': 'Cairn 没有可用的后端',
  'backendProblem.intro': '应用无法获得可用的 Cairn 服务器。它给出的信息：',
  'backendProblem.retry': '重试',
};
