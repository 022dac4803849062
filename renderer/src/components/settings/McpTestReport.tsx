import type { McpTestResult } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import '../../i18n/messages/mcp';

/** What "Test connection" found: how the server was started, and its tools (allowed or withheld). */
export function McpTestReport({ result }: { result: McpTestResult }) {
  const t = useT();
  const env = Object.entries(result.env);
  return (
    <section className="mcp-test" aria-label={t('mcp.test.title')}>
      <p className="settings-success">
        {result.server_info
          ? t('mcp.test.ok', { name: result.server_info.name, version: result.server_info.version })
          : t('mcp.test.okAnonymous')}
      </p>
      <dl className="mcp-test-facts">
        {result.program !== null && (
          <>
            <dt>{t('mcp.test.program')}</dt>
            <dd className="settings-mono" data-testid="mcp-test-program">
              {result.program}
            </dd>
            <dt>{t('mcp.test.args')}</dt>
            <dd>
              {result.args.length === 0 ? (
                <span className="settings-muted">{t('mcp.test.none')}</span>
              ) : (
                <ol className="mcp-args">
                  {result.args.map((arg, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: arguments may repeat; their order is their identity
                    <li key={index} className="settings-mono">
                      {arg}
                    </li>
                  ))}
                </ol>
              )}
            </dd>
          </>
        )}
        {result.cwd !== null && (
          <>
            <dt>{t('mcp.test.cwd')}</dt>
            <dd className="settings-mono">{result.cwd}</dd>
          </>
        )}
        <dt>{t('mcp.test.env')}</dt>
        <dd>
          {env.length === 0 ? (
            <span className="settings-muted">{t('mcp.test.none')}</span>
          ) : (
            <ul className="mcp-env-list">
              {env.map(([name, source]) => (
                <li key={name}>
                  <span className="settings-mono">{name}</span>{' '}
                  <span className="settings-muted">{t(`mcp.test.source.${source}`)}</span>
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      <h4>{t('mcp.test.tools', { count: String(result.tools.length) })}</h4>
      {result.tools.length === 0 ? (
        <p className="settings-muted">{t('mcp.test.noTools')}</p>
      ) : (
        <ul className="mcp-tools">
          {result.tools.map((tool) => (
            <li key={tool.name} className={tool.allowed ? 'mcp-tool' : 'mcp-tool mcp-tool-withheld'}>
              <span className="settings-mono">{tool.name}</span>{' '}
              {!tool.allowed && (
                <span className="settings-badge settings-badge-warning">{t('mcp.test.withheld')}</span>
              )}
              {tool.description && <span className="mcp-tool-description">{tool.description}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
