import type { Translation } from '../../catalog';
import type { dialogMessages as en } from '../dialogs';

/** Typed against the English file: a missing or extra key fails the type check. */
export const dialogMessages: Translation<typeof en> = {
  'openProject.title': '打开项目文件夹',
  'openProject.pathLabel': '服务器上的文件夹路径',
  'openProject.hintRemote': '项目是运行 Cairn 服务器的机器上的文件夹。',
  'openProject.pathLabelOnHost': '{host} 上的文件夹路径',
  'openProject.hintOnHost': '项目是 {host}（运行 Cairn 服务器的机器）上的文件夹，而不是这台电脑上的。',
  'openProject.open': '打开',
  'openProject.cancel': '取消',
  'switcher.title': '切换会话',
  'switcher.placeholder': '输入以筛选会话',
  'switcher.empty': '没有匹配的会话',

  'search.title': '搜索',
  'search.placeholder': '搜索消息、工具调用和内核单元',
  'search.scope': '搜索范围',
  'search.scope.session': '当前会话',
  'search.scope.project': '当前项目',
  'search.scope.all': '所有会话',
  'search.results': '结果',
  'search.searching': '正在搜索…',
  'search.hint': '输入词语或短语进行查找。',
  'search.none': '没有找到“{query}”。',
  'search.error': '搜索失败：{message}',
  'search.more': '加载更多',
  'search.keys': '↑ ↓ 移动 · Enter 打开 · Esc 关闭',
  'search.kind.message': '消息',
  'search.kind.tool_call': '工具调用',
  'search.kind.kernel_cell': '内核单元',
};
