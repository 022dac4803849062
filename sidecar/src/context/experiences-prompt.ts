import type { Experience } from '../protocol';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The experiences as the end of the system prompt: outside the history, so every compaction keeps them,
 * and after the stable part, so a new one does not change the cached prefix before it.
 */
export function renderExperiences(list: readonly Experience[]): string {
  if (list.length === 0) return '';
  const items = list.map(
    (e) => `<exp id="${escapeXml(e.id).replace(/"/g, '&quot;')}">${escapeXml(e.text)}</exp>`,
  );
  return (
    'Your experiences: durable notes for this session and project, kept through every compaction (manage them ' +
    `with the Context tool's remember and forget).\n<experiences>\n${items.join('\n')}\n</experiences>`
  );
}
