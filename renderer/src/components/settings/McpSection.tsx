import { useCallback, useEffect, useId, useState } from 'react';
import { ApiError, type CairnClient } from '../../../../sidecar/src/client';
import type { McpServer } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { ConfirmDialog } from '../ConfirmDialog';
import { McpImportPanel } from './McpImportPanel';
import { McpServerForm } from './McpServerForm';
import { McpServerRow } from './McpServerRow';
import '../../i18n/messages/mcp';

type Editing = { kind: 'new' } | { kind: 'edit'; server: McpServer } | { kind: 'import' } | null;

/**
 * Settings → MCP servers: list with status, add, edit, enable/disable, test, import and delete. Not shown
 * when the server has no MCP (conversation-only).
 */
export function McpSection({ client }: { client: CairnClient }) {
  const t = useT();
  const id = useId();
  const [available, setAvailable] = useState<boolean | null>(null);
  const [servers, setServers] = useState<McpServer[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<McpServer | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<{ id: string; message: string } | null>(null);

  const reload = useCallback(async () => {
    try {
      setServers(await client.listMcpServers());
      setAvailable(true);
      setLoadError(null);
    } catch (error) {
      // The API itself says when this server has no MCP (conversation-only): no section then.
      if (error instanceof ApiError && error.code === 'conversation_only') setAvailable(false);
      else setLoadError(messageOf(error));
    }
  }, [client]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const act = async (server: McpServer, action: () => Promise<unknown>) => {
    setBusy(server.id);
    setActionError(null);
    try {
      await action();
      await reload();
    } catch (error) {
      setActionError({ id: server.id, message: messageOf(error) });
    } finally {
      setBusy(null);
    }
  };

  const onChanged = useCallback(() => void reload(), [reload]);

  const closeForm = () => {
    setEditing(null);
    void reload();
  };

  if (available === false) return null;
  return (
    <section className="settings-section mcp-section" aria-labelledby={`${id}-title`}>
      <div className="settings-section-header">
        <h2 id={`${id}-title`}>{t('mcp.title')}</h2>
        <div className="settings-actions">
          <button
            type="button"
            className="settings-button"
            disabled={editing?.kind === 'import'}
            onClick={() => setEditing({ kind: 'import' })}
          >
            {t('mcp.import.open')}
          </button>
          <button
            type="button"
            className="settings-button settings-button-primary"
            disabled={editing?.kind === 'new'}
            onClick={() => setEditing({ kind: 'new' })}
          >
            {t('mcp.add')}
          </button>
        </div>
      </div>
      <p className="settings-description">{t('mcp.description')}</p>

      {editing?.kind === 'new' && (
        <McpServerForm
          client={client}
          initial={null}
          onCancel={closeForm}
          onSaved={closeForm}
          onChanged={() => void reload()}
        />
      )}
      {editing?.kind === 'import' && <McpImportPanel client={client} onClose={closeForm} />}

      {loadError && (
        <div className="settings-error" role="alert">
          <p>{t('mcp.loadError', { message: loadError })}</p>
          <button type="button" className="settings-button" onClick={() => void reload()}>
            {t('mcp.retry')}
          </button>
        </div>
      )}
      {servers === null && !loadError && <p className="settings-muted">{t('mcp.loading')}</p>}
      {servers?.length === 0 && editing?.kind !== 'new' && <p className="settings-empty">{t('mcp.empty')}</p>}
      {servers && servers.length > 0 && (
        <ul className="settings-list" aria-label={t('mcp.title')}>
          {servers.map((server) =>
            editing?.kind === 'edit' && editing.server.id === server.id ? (
              <li key={server.id} className="model-item model-item-editing">
                <McpServerForm
                  client={client}
                  initial={server}
                  onCancel={closeForm}
                  onSaved={closeForm}
                  onChanged={() => void reload()}
                />
              </li>
            ) : (
              <McpServerRow
                key={server.id}
                server={server}
                client={client}
                busy={busy === server.id}
                error={actionError?.id === server.id ? actionError.message : null}
                onToggle={(enabled) => void act(server, () => client.updateMcpServer(server.id, { enabled }))}
                onEdit={() => setEditing({ kind: 'edit', server })}
                onDelete={() => setDeleting(server)}
                onChanged={onChanged}
              />
            ),
          )}
        </ul>
      )}
      {deleting && (
        <ConfirmDialog
          message={t('mcp.confirmDelete', { name: deleting.name })}
          confirmLabel={t('mcp.list.delete')}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const server = deleting;
            setDeleting(null);
            void act(server, () => client.deleteMcpServer(server.id));
          }}
        />
      )}
    </section>
  );
}
