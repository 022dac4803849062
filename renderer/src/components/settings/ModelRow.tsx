import { useEffect, useId, useRef } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { ModelConfig } from '../../../../sidecar/src/protocol';
import { useI18n, useT } from '../../i18n/i18n';
import { formatCost } from '../cost-format';
import { ModelKeyField } from './ModelKeyField';
import { thresholdPercent } from './model-form-validation';
import '../../i18n/messages/model-compaction';
import '../../i18n/messages/settings';

const PRICE_KEYS = ['price_input', 'price_output', 'price_cache_read', 'price_cache_write'] as const;

/** One model configuration: its details, its write-only key field, and its actions (with delete confirmation). */
export function ModelRow(props: {
  model: ModelConfig;
  client: CairnClient;
  busy: boolean;
  confirming: boolean;
  error: string | null;
  focusKey: boolean;
  onKeyFocused(): void;
  onActivate(): void;
  onEdit(): void;
  onAskDelete(): void;
  onCancelDelete(): void;
  onConfirmDelete(): void;
  onKeySaved(): void;
}) {
  const { model } = props;
  const t = useT();
  const { formatNumber, locale } = useI18n();
  const price = (value: number | null) => (value === null ? '—' : formatCost(locale, value));
  const id = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (props.confirming) cancelRef.current?.focus();
  }, [props.confirming]);

  const tokens = (n: number) => t('settings.models.tokens', { count: formatNumber(n) });

  return (
    <li
      className={model.active ? 'model-item model-item-active' : 'model-item'}
      aria-labelledby={`${id}-name`}
    >
      <div className="model-item-header">
        <h3 id={`${id}-name`} className="model-name">
          {model.name}
        </h3>
        {model.active && (
          <span className="settings-badge settings-badge-accent">{t('settings.models.active')}</span>
        )}
      </div>
      <dl className="model-details">
        <div>
          <dt>{t('settings.models.model')}</dt>
          <dd className="settings-mono">{model.model}</dd>
        </div>
        <div>
          <dt>{t('settings.models.endpoint')}</dt>
          <dd className={model.base_url ? 'settings-mono' : undefined}>
            {model.base_url ?? t('settings.models.defaultEndpoint')}
          </dd>
        </div>
        <div>
          <dt>{t('settings.models.contextWindow')}</dt>
          <dd>{tokens(model.context_window)}</dd>
        </div>
        <div>
          <dt>{t('settings.models.maxTokens')}</dt>
          <dd>{tokens(model.max_tokens)}</dd>
        </div>
        <div>
          <dt>{t('settings.models.thinking')}</dt>
          <dd>
            {model.thinking_budget === null
              ? t('settings.models.thinkingOff')
              : tokens(model.thinking_budget)}
          </dd>
        </div>
        <div>
          <dt>{t('settings.compaction.label')}</dt>
          <dd>
            {model.compact_threshold === null
              ? t('settings.compaction.off')
              : t('settings.compaction.at', {
                  percent: formatNumber(thresholdPercent(model.compact_threshold)),
                })}
          </dd>
        </div>
        {PRICE_KEYS.some((key) => model[key] !== null) && (
          <div>
            <dt>{t('settings.models.prices')}</dt>
            <dd>
              {t('settings.models.priceList', {
                input: price(model.price_input),
                output: price(model.price_output),
                read: price(model.price_cache_read),
                write: price(model.price_cache_write),
              })}
            </dd>
          </div>
        )}
      </dl>

      <ModelKeyField
        model={model}
        client={props.client}
        focus={props.focusKey}
        onFocused={props.onKeyFocused}
        onSaved={props.onKeySaved}
      />

      {props.confirming ? (
        // biome-ignore lint/a11y/noStaticElementInteractions: Escape cancels the confirmation; the buttons are the controls.
        <div
          className="settings-confirm"
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.preventDefault();
            props.onCancelDelete();
          }}
        >
          <p id={`${id}-confirm`}>{t('settings.models.confirmDelete', { name: model.name })}</p>
          <div className="settings-actions">
            <button
              type="button"
              ref={cancelRef}
              className="settings-button"
              onClick={props.onCancelDelete}
              disabled={props.busy}
              aria-describedby={`${id}-confirm`}
            >
              {t('settings.models.cancel')}
            </button>
            <button
              type="button"
              className="settings-button settings-button-danger"
              onClick={props.onConfirmDelete}
              disabled={props.busy}
              aria-describedby={`${id}-confirm`}
            >
              {props.busy ? t('settings.models.working') : t('settings.models.confirmDeleteAction')}
            </button>
          </div>
        </div>
      ) : (
        <div className="settings-actions">
          {!model.active && (
            <button
              type="button"
              className="settings-button"
              onClick={props.onActivate}
              disabled={props.busy}
              aria-label={t('settings.models.activateLabel', { name: model.name })}
            >
              {props.busy ? t('settings.models.working') : t('settings.models.activate')}
            </button>
          )}
          <button
            type="button"
            className="settings-button"
            onClick={props.onEdit}
            disabled={props.busy}
            data-edit-model={model.id}
            aria-label={t('settings.models.editLabel', { name: model.name })}
          >
            {t('settings.models.edit')}
          </button>
          <button
            type="button"
            className="settings-button settings-button-danger-quiet"
            onClick={props.onAskDelete}
            disabled={props.busy}
            aria-label={t('settings.models.deleteLabel', { name: model.name })}
          >
            {t('settings.models.delete')}
          </button>
        </div>
      )}
      {props.error && (
        <p className="settings-error" role="alert">
          {t('settings.models.actionError', { message: props.error })}
        </p>
      )}
    </li>
  );
}
