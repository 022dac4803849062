import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { ModelConfig } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { type EnvOverrides, ModelEnvNotice } from './ModelEnvNotice';
import { ModelForm } from './ModelForm';
import { ModelRow } from './ModelRow';
import '../../i18n/messages/settings';

type Editing = { kind: 'new' } | { kind: 'edit'; model: ModelConfig } | null;

/** The model configurations: list, add, edit, activate, delete, and each one's write-only key. */
export function ModelsSection({ client }: { client: CairnClient }) {
  const t = useT();
  const id = useId();
  const [models, setModels] = useState<ModelConfig[] | null>(null);
  const [overrides, setOverrides] = useState<EnvOverrides | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<{ id: string; message: string } | null>(null);
  const [focusKeyOf, setFocusKeyOf] = useState<string | null>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const addRef = useRef<HTMLButtonElement>(null);

  const reload = useCallback(async () => {
    try {
      const status = await client.modelStatus();
      setModels(status.models);
      setOverrides(status.env_overrides);
      setLoadError(null);
    } catch (error) {
      setLoadError(messageOf(error));
    }
  }, [client]);

  useEffect(() => {
    void reload();
  }, [reload]);

  /** Puts focus back where it was before a form or confirmation opened (or on a stand-in for it). */
  const restoreFocus = (editedId?: string) => {
    const target = returnFocus.current;
    returnFocus.current = null;
    requestAnimationFrame(() => {
      if (target?.isConnected) return target.focus();
      const edit = editedId
        ? Array.from(document.querySelectorAll<HTMLElement>('[data-edit-model]')).find(
            (el) => el.dataset.editModel === editedId,
          )
        : undefined;
      (edit ?? addRef.current)?.focus();
    });
  };

  const openForm = (next: Exclude<Editing, null>) => {
    returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setConfirming(null);
    setActionError(null);
    setEditing(next);
  };

  const closeForm = () => {
    setEditing(null);
    restoreFocus(editing?.kind === 'edit' ? editing.model.id : undefined);
  };

  const runAction = async (model: ModelConfig, action: () => Promise<unknown>) => {
    setBusy(model.id);
    setActionError(null);
    try {
      await action();
      await reload();
      return true;
    } catch (error) {
      setActionError({ id: model.id, message: messageOf(error) });
      return false;
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="settings-section" aria-labelledby={`${id}-title`}>
      <div className="settings-section-header">
        <h2 id={`${id}-title`}>{t('settings.models.title')}</h2>
        <button
          type="button"
          ref={addRef}
          className="settings-button settings-button-primary"
          onClick={() => openForm({ kind: 'new' })}
          disabled={editing?.kind === 'new'}
        >
          {t('settings.models.add')}
        </button>
      </div>
      <p className="settings-description">{t('settings.models.description')}</p>
      {overrides && <ModelEnvNotice overrides={overrides} />}

      {editing?.kind === 'new' && (
        <ModelForm
          client={client}
          initial={null}
          onCancel={closeForm}
          onSaved={async (saved) => {
            setEditing(null);
            await reload();
            setFocusKeyOf(saved.id);
          }}
        />
      )}

      {loadError && (
        <div className="settings-error" role="alert">
          <p>{t('settings.models.loadError', { message: loadError })}</p>
          <button type="button" className="settings-button" onClick={() => void reload()}>
            {t('settings.models.retry')}
          </button>
        </div>
      )}
      {models === null && !loadError && <p className="settings-muted">{t('settings.models.loading')}</p>}
      {models?.length === 0 && editing?.kind !== 'new' && (
        <p className="settings-empty">{t('settings.models.empty')}</p>
      )}

      {models && models.length > 0 && (
        <ul className="settings-list">
          {models.map((model) =>
            editing?.kind === 'edit' && editing.model.id === model.id ? (
              <li key={model.id} className="model-item model-item-editing">
                <ModelForm
                  client={client}
                  initial={model}
                  onCancel={closeForm}
                  onSaved={async () => {
                    setEditing(null);
                    await reload();
                    restoreFocus(model.id);
                  }}
                />
              </li>
            ) : (
              <ModelRow
                key={model.id}
                model={model}
                client={client}
                busy={busy === model.id}
                confirming={confirming === model.id}
                error={actionError?.id === model.id ? actionError.message : null}
                focusKey={focusKeyOf === model.id}
                onKeyFocused={() => setFocusKeyOf(null)}
                onActivate={() => void runAction(model, () => client.activateModel(model.id))}
                onEdit={() => openForm({ kind: 'edit', model })}
                onAskDelete={() => {
                  returnFocus.current =
                    document.activeElement instanceof HTMLElement ? document.activeElement : null;
                  setActionError(null);
                  setConfirming(model.id);
                }}
                onCancelDelete={() => {
                  setConfirming(null);
                  restoreFocus();
                }}
                onConfirmDelete={async () => {
                  const ok = await runAction(model, () => client.deleteModel(model.id));
                  setConfirming(null);
                  if (ok) {
                    returnFocus.current = null;
                    restoreFocus();
                  }
                }}
                onKeySaved={() => void reload()}
              />
            ),
          )}
        </ul>
      )}
    </section>
  );
}
