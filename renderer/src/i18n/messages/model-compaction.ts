import type { AreaMessages } from '../catalog';

/** Automatic compaction in a model's settings: the form's checkbox and percentage, and the list's line. */
export const modelCompactionMessages: AreaMessages = {
  en: {
    'settings.compaction.auto': 'Compact the conversation automatically',
    'settings.compaction.threshold': 'Compact at (% of the usable window)',
    'settings.compaction.thresholdHint':
      'When the next request would pass this share of the usable context window, Cairn compacts first. From 1 to 100.',
    'settings.compaction.invalid': 'Enter a percentage from 1 to 100, or turn automatic compaction off.',
    'settings.compaction.label': 'Compaction',
    'settings.compaction.at': 'Compacts at {percent}%',
    'settings.compaction.off': 'Automatic compaction off',
  },
  'zh-CN': {
    'settings.compaction.auto': '自动压缩对话',
    'settings.compaction.threshold': '压缩阈值（可用窗口的百分比）',
    'settings.compaction.thresholdHint':
      '下一个请求将超过可用上下文窗口的这一比例时，Cairn 会先压缩对话。范围为 1 到 100。',
    'settings.compaction.invalid': '请输入 1 到 100 之间的百分比，或关闭自动压缩。',
    'settings.compaction.label': '压缩',
    'settings.compaction.at': '在 {percent}% 时压缩',
    'settings.compaction.off': '自动压缩已关闭',
  },
};
