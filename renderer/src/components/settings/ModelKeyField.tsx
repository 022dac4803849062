import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { ModelConfig } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { FieldFeedback } from './FieldFeedback';
import '../../i18n/messages/settings';

type KeyStatus =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'empty' }
  | { kind: 'error'; message: string };

/**
 * The write-only API key field. The input is uncontrolled (React would otherwise mirror the value into a
 * DOM attribute); the key is read from it only while submitting, the field is cleared at once, and the
 * key is never kept in state, rendered, or logged.
 */
export function ModelKeyField(props: {
  model: ModelConfig;
  client: CairnClient;
  focus: boolean;
  onFocused(): void;
  onSaved(): void;
}) {
  const { model, focus, onFocused } = props;
  const t = useT();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<KeyStatus>({ kind: 'idle' });

  useEffect(() => {
    if (!focus) return;
    inputRef.current?.focus();
    onFocused();
  }, [focus, onFocused]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = inputRef.current;
    if (!input) return;
    const key = input.value.trim();
    input.value = '';
    if (!key) {
      setStatus({ kind: 'empty' });
      input.focus();
      return;
    }
    setStatus({ kind: 'saving' });
    try {
      await props.client.setModelKey(model.id, key);
      setStatus({ kind: 'saved' });
      props.onSaved();
    } catch (error) {
      // The server scrubs secrets from its messages; scrub again so a key can never reach the screen.
      const message = messageOf(error).split(key).join('••••');
      setStatus({ kind: 'error', message });
    }
  };

  const inputId = `${id}-key`;
  const statusId = `${id}-status`;
  const hintId = `${id}-hint`;
  const feedbackId = `${id}-feedback`;
  const feedback =
    status.kind === 'saved'
      ? t('settings.key.saved')
      : status.kind === 'empty'
        ? t('settings.key.empty')
        : status.kind === 'error'
          ? t('settings.key.error', { message: status.message })
          : null;
  const isError = status.kind === 'empty' || status.kind === 'error';

  return (
    <form className="key-form" onSubmit={submit} noValidate>
      <label htmlFor={inputId} className="key-label">
        {t('settings.key.label')}
      </label>
      <div className="key-row">
        <input
          id={inputId}
          ref={inputRef}
          type="password"
          autoComplete="off"
          spellCheck="false"
          autoCapitalize="off"
          className="key-input"
          aria-label={t('settings.key.labelFor', { name: model.name })}
          placeholder={
            model.has_key ? t('settings.key.placeholderReplace') : t('settings.key.placeholderNew')
          }
          aria-describedby={`${statusId} ${hintId}${feedback ? ` ${feedbackId}` : ''}`}
          aria-invalid={isError ? true : undefined}
          onChange={() => {
            if (status.kind !== 'idle' && status.kind !== 'saving') setStatus({ kind: 'idle' });
          }}
        />
        <button
          type="submit"
          className="settings-button"
          disabled={status.kind === 'saving'}
          aria-label={t('settings.key.saveLabel', { name: model.name })}
        >
          {status.kind === 'saving' ? t('settings.key.saving') : t('settings.key.save')}
        </button>
        <span
          id={statusId}
          className={
            model.has_key ? 'settings-badge settings-badge-success' : 'settings-badge settings-badge-warning'
          }
        >
          {model.has_key ? t('settings.key.set') : t('settings.key.notSet')}
        </span>
      </div>
      <p id={hintId} className="settings-hint">
        {t('settings.key.hint')}
      </p>
      <FieldFeedback id={feedbackId} text={feedback} isError={isError} />
    </form>
  );
}
