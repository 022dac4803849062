import { english } from '../english';

/** Automatic compaction in a model's settings: the form's checkbox and percentage, and the list's line. */
export const modelCompactionMessages = english({
  'settings.compaction.auto': 'Compact the conversation automatically',
  'settings.compaction.threshold': 'Compact at (% of the usable window)',
  'settings.compaction.thresholdHint':
    'When the next request would pass this share of the usable context window, Cairn compacts first. From 1 to 100.',
  'settings.compaction.invalid': 'Enter a percentage from 1 to 100, or turn automatic compaction off.',
  'settings.compaction.label': 'Compaction',
  'settings.compaction.at': 'Compacts at {percent}%',
  'settings.compaction.off': 'Automatic compaction off',
});
