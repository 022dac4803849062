import type { CairnClient } from '../../../../sidecar/src/client';
import { useT } from '../../i18n/i18n';
import '../../i18n/messages/settings';

/** What the server's environment sets over the active config, as `GET /api/models` reports it (never a key). */
export type EnvOverrides = Awaited<ReturnType<CairnClient['modelStatus']>>['env_overrides'];

/**
 * Says that the server's environment overrides the active config without saving it. Renders nothing when no
 * override is set. Only names where a key comes from; the response carries no key value.
 */
export function ModelEnvNotice({ overrides }: { overrides: EnvOverrides }) {
  const t = useT();
  if (!overrides.key && overrides.model === null && overrides.base_url === null) return null;
  return (
    <div className="settings-notice" role="note" aria-label={t('settings.env.label')}>
      <p>{t('settings.env.intro')}</p>
      <ul>
        {overrides.key && <li>{t('settings.env.key')}</li>}
        {overrides.model !== null && <li>{t('settings.env.model', { model: overrides.model })}</li>}
        {overrides.base_url !== null && <li>{t('settings.env.baseUrl', { url: overrides.base_url })}</li>}
      </ul>
    </div>
  );
}
