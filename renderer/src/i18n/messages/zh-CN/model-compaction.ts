import type { Translation } from '../../catalog';
import type { modelCompactionMessages as en } from '../model-compaction';

/** Typed against the English file: a missing or extra key fails the type check. */
export const modelCompactionMessages: Translation<typeof en> = {
  'settings.compaction.auto': '自动压缩对话',
  'settings.compaction.threshold': '压缩阈值（可用窗口的百分比）',
  'settings.compaction.thresholdHint':
    '下一个请求将超过可用上下文窗口的这一比例时，Cairn 会先压缩对话。范围为 1 到 100。',
  'settings.compaction.invalid': '请输入 1 到 100 之间的百分比，或关闭自动压缩。',
  'settings.compaction.label': '压缩',
  'settings.compaction.at': '在 {percent}% 时压缩',
  'settings.compaction.off': '自动压缩已关闭',
};
