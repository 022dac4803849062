import type { LoadedTool } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import '../../i18n/messages/background';

/** The tools the agent loaded into the session: their methods, where they run, and whether they work. */
export function LoadedToolList({ tools }: { tools: readonly LoadedTool[] }) {
  const t = useT();
  if (tools.length === 0) return <p className="muted">{t('background.tools.empty')}</p>;
  return (
    <ul className="loaded-tools">
      {tools.map((tool) => (
        <li key={tool.name} className="loaded-tool" aria-label={tool.name} title={tool.description}>
          <div className="loaded-tool-head">
            <span className="mono loaded-tool-name">{tool.name}</span>
            <span className={`loaded-tool-state loaded-tool-state--${tool.state}`} data-testid="tool-state">
              {t(tool.state === 'ready' ? 'background.tools.ready' : 'background.tools.crashed')}
            </span>
          </div>
          <p className="muted loaded-tool-where">
            {tool.mode === 'local'
              ? t('background.tools.local')
              : tool.pid !== null
                ? t('background.tools.process', { pid: String(tool.pid) })
                : t('background.tools.processNoPid')}
          </p>
          {tool.error && (
            <p className="error-text loaded-tool-error">
              {t('background.tools.error', { message: tool.error })}
            </p>
          )}
          <ul className="loaded-tool-methods" aria-label={t('background.tools.methods', { name: tool.name })}>
            {tool.methods.map((method) => (
              <li key={method.name} title={method.description}>
                <span className="mono">{method.name}</span>
                <span className={`loaded-tool-kind loaded-tool-kind--${method.kind}`}>
                  {t(method.kind === 'batch' ? 'background.tools.batch' : 'background.tools.stream')}
                </span>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
