import { useCallback, useEffect, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { ContentBlock, ContextVersionView } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import '../../i18n/messages/context-panel';

const PAGE = 40;
const MAX_BLOCK_CHARS = 4000;

/** What the model saw at one context version, read only, newest page first with earlier pages on demand. */
export function VersionView(props: { client: CairnClient; sessionId: string; number: number }) {
  const { client, sessionId, number } = props;
  const t = useT();
  const [page, setPage] = useState<ContextVersionView | null>(null);
  const [messages, setMessages] = useState<ContextVersionView['messages']>([]);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(
    async (before?: number) => {
      setLoading(true);
      try {
        const next = await client.contextVersion(sessionId, number, { limit: PAGE, before });
        setPage(next);
        setMessages((shown) => (before === undefined ? next.messages : [...next.messages, ...shown]));
        setError(null);
      } catch (e) {
        setError(messageOf(e));
      } finally {
        setLoading(false);
      }
    },
    [client, sessionId, number],
  );
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="version-view" aria-label={t('context.versionTitle', { number })}>
      <h3>{t('context.versionTitle', { number })}</h3>
      <p className="muted">{t(page?.head ? 'context.versionHead' : 'context.versionReadOnly')}</p>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {page?.next_before != null && (
        <button type="button" disabled={loading} onClick={() => void load(page.next_before ?? undefined)}>
          {t('context.loadEarlier')}
        </button>
      )}
      {page && messages.length === 0 && <p className="muted">{t('context.versionEmpty')}</p>}
      <ol className="version-messages">
        {messages.map((m) => (
          <li key={m.index} className={`version-message ${m.role}`}>
            <span className="version-role">{t(`context.unit.${m.role}`)}</span>
            {m.content.map((block, b) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a message's blocks never move
              <pre key={b} className="version-block">
                {blockText(block)}
              </pre>
            ))}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** A content block as plain text: what was said, which tool was called with what, what came back. */
function blockText(block: ContentBlock): string {
  const text = (() => {
    if (block.type === 'text') return String(block.text ?? '');
    if (block.type === 'thinking') return String(block.thinking ?? '');
    if (block.type === 'tool_use') return `${String(block.name)} ${JSON.stringify(block.input)}`;
    if (block.type === 'tool_result') {
      const content = block.content;
      if (typeof content === 'string') return content;
      if (Array.isArray(content)) return content.map((c) => blockText(c as ContentBlock)).join('\n');
      return '';
    }
    return `[${block.type}]`;
  })();
  return text.length > MAX_BLOCK_CHARS ? `${text.slice(0, MAX_BLOCK_CHARS)}…` : text;
}
