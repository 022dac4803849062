import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A non-text block of a tool result, kept as it came (base64 data stays base64). */
export type McpAttachment =
  | { type: 'image' | 'audio'; mimeType: string; data: string }
  | { type: 'resource'; uri: string; mimeType: string | null; text: string | null; data: string | null }
  | {
      type: 'resource_link';
      uri: string;
      name: string;
      mimeType: string | null;
      description: string | null;
    };

export interface McpCallResult {
  /** The server said the call failed (`isError`): the caller makes it an ordinary tool failure. */
  isError: boolean;
  /** What the model sees: the text blocks in order (attachments are for the caller to save and mention). */
  text: string;
  /** Images, audio, embedded resources and resource links, as they came. */
  attachments: McpAttachment[];
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * Turns a tools/call result into text for the model and attachments for the call's record. Block types this
 * version does not know are noted in the text rather than dropped silently.
 */
export function convertCallResult(result: CallToolResult): McpCallResult {
  const texts: string[] = [];
  const attachments: McpAttachment[] = [];
  for (const block of result.content ?? []) {
    const b = block as Record<string, unknown> & { type: string };
    switch (b.type) {
      case 'text':
        texts.push(str(b.text) ?? '');
        break;
      case 'image':
      case 'audio': {
        const mime = str(b.mimeType) ?? 'application/octet-stream';
        attachments.push({ type: b.type, mimeType: mime, data: str(b.data) ?? '' });
        break;
      }
      case 'resource': {
        const r = (b.resource ?? {}) as Record<string, unknown>;
        const uri = str(r.uri) ?? '';
        attachments.push({
          type: 'resource',
          uri,
          mimeType: str(r.mimeType),
          text: str(r.text),
          data: str(r.blob),
        });
        break;
      }
      case 'resource_link': {
        const uri = str(b.uri) ?? '';
        attachments.push({
          type: 'resource_link',
          uri,
          name: str(b.name) ?? uri,
          mimeType: str(b.mimeType),
          description: str(b.description),
        });
        break;
      }
      default:
        texts.push(`[unsupported content block of type ${JSON.stringify(b.type)}]`);
    }
  }
  const hasText = (result.content ?? []).some((b) => b.type === 'text');
  if (!hasText && result.structuredContent !== undefined) {
    texts.push(JSON.stringify(result.structuredContent));
  }
  return { isError: result.isError === true, text: texts.join('\n'), attachments };
}
