/** The non-text content an MCP call saved in its mcp_result.json, read defensively (the file is the server's). */
export type McpAttachment =
  | { type: 'image' | 'audio'; mimeType: string; data: string }
  | { type: 'resource'; uri: string; mimeType: string | null; text: string | null; data: string | null }
  | { type: 'resource_link'; uri: string; name: string; mimeType: string | null; description: string | null };

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The attachments of an mcp_result.json; anything unreadable is skipped rather than shown wrong. */
export function parseMcpResultFile(text: string): McpAttachment[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const content = (parsed as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return [];
  const out: McpAttachment[] = [];
  for (const item of content as Record<string, unknown>[]) {
    if (typeof item !== 'object' || item === null) continue;
    if ((item.type === 'image' || item.type === 'audio') && str(item.data) !== null) {
      out.push({
        type: item.type,
        mimeType: str(item.mimeType) ?? 'application/octet-stream',
        data: str(item.data)!,
      });
    } else if (item.type === 'resource') {
      out.push({
        type: 'resource',
        uri: str(item.uri) ?? '',
        mimeType: str(item.mimeType),
        text: str(item.text),
        data: str(item.data),
      });
    } else if (item.type === 'resource_link') {
      out.push({
        type: 'resource_link',
        uri: str(item.uri) ?? '',
        name: str(item.name) ?? str(item.uri) ?? '',
        mimeType: str(item.mimeType),
        description: str(item.description),
      });
    }
  }
  return out;
}

/** Image types a browser shows inline from data without running anything (SVG only ever as an <img>). */
const INLINE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml']);

export function isInlineImage(attachment: McpAttachment): attachment is McpAttachment & { type: 'image' } {
  return attachment.type === 'image' && INLINE_IMAGES.has(attachment.mimeType.toLowerCase());
}

/** The attachment's bytes as a Blob to save, or null when it carries none (a link). */
export function attachmentBlob(attachment: McpAttachment): Blob | null {
  const mime = attachment.mimeType ?? 'application/octet-stream';
  if (attachment.type === 'image' || attachment.type === 'audio') return base64Blob(attachment.data, mime);
  if (attachment.type === 'resource') {
    if (attachment.data !== null) return base64Blob(attachment.data, mime);
    if (attachment.text !== null)
      return new Blob([attachment.text], { type: attachment.mimeType ?? 'text/plain' });
  }
  return null;
}

function base64Blob(data: string, mime: string): Blob | null {
  try {
    const binary = atob(data);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new Blob([bytes], { type: mime });
  } catch {
    return null;
  }
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'application/json': 'json',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/html': 'html',
};

/** A file name for saving an attachment: the resource's own name when its URI has one. */
export function attachmentFileName(attachment: McpAttachment, index: number): string {
  if (attachment.type === 'resource') {
    const last = attachment.uri.split(/[/\\]/).pop() ?? '';
    const clean = last.replace(/[^\w.-]+/g, '_').slice(0, 80);
    if (clean !== '' && clean !== '_') return clean;
  }
  const ext = EXTENSIONS[(attachment.mimeType ?? '').toLowerCase()] ?? 'bin';
  return `${attachment.type}-${index + 1}.${ext}`;
}

const SAVED_NOTE = /^\[\d+ non-text items? \([^\n]*\) saved to mcp_result\.json;[^\n]*\]$/;

/**
 * The model's text without Cairn's note about saved items (the card shows the items themselves). Only the
 * last line is looked at, so a result of any length costs one short match.
 */
export function withoutSavedNote(text: string): { text: string; saved: boolean } {
  const trimmed = text.trimEnd();
  const start = trimmed.lastIndexOf('\n') + 1;
  if (!SAVED_NOTE.test(trimmed.slice(start))) return { text, saved: false };
  return { text: trimmed.slice(0, start).trimEnd(), saved: true };
}
