import { english } from '../english';

/** Forks: the group under the turn that spawned them, a fork's read-only conversation, what a fork asks. */
export const forkMessages = english({
  'fork.group.title': 'Forks',
  'fork.group.count': '{count}',
  'fork.group.label': 'Forks this turn spawned',
  'fork.status.queued': 'Queued',
  'fork.status.running': 'Running',
  'fork.status.completed': 'Done',
  'fork.status.failed': 'Failed',
  'fork.status.cancelled': 'Cancelled',
  'fork.status.interrupted': 'Interrupted',
  'fork.open': 'Open',
  'fork.openLabel': 'Open the fork “{task}”',
  'fork.response.more': 'Show all',
  'fork.response.less': 'Show less',
  'fork.response.failed': 'It failed: {message}',
  'fork.banner': 'Fork of {parent} · read-only',
  'fork.bannerNoParent': 'Fork · read-only',
  'fork.banner.hint': 'Its questions and approvals are asked in the parent session.',
  'fork.banner.back': 'Back to the parent session',
  'fork.question.from': 'From fork: {name}',
});
