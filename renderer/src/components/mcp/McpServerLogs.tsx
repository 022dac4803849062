import { useT } from '../../i18n/i18n';
import type { McpLogLine } from '../../state/mcp-logs';
import '../../i18n/messages/mcp';

/** A server's recent log lines, closed by default: level and text, never rendered as markup. */
export function McpServerLogs({ name, lines }: { name: string; lines: readonly McpLogLine[] }) {
  const t = useT();
  if (lines.length === 0) return null;
  return (
    <details className="mcp-session-logs">
      <summary>{t('mcp.session.logsCount', { count: String(lines.length) })}</summary>
      <ul className="mcp-session-log-lines" aria-label={t('mcp.session.logs', { name })}>
        {lines.map((line) => (
          <li key={line.seq} className="mcp-session-log-line" data-level={line.level}>
            <span className={`mcp-log-level mcp-log-level-${line.level}`}>{line.level}</span>
            {line.text}
          </li>
        ))}
      </ul>
    </details>
  );
}
