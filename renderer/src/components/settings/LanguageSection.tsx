import { useId } from 'react';
import { LOCALES, type Locale } from '../../i18n/catalog';
import { useI18n } from '../../i18n/i18n';
import '../../i18n/messages/settings';

/** Chooses the display language (stored by the i18n provider). */
export function LanguageSection() {
  const { t, locale, setLocale } = useI18n();
  const id = useId();
  return (
    <section className="settings-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('settings.language.title')}</h2>
      <div className="settings-field">
        <label htmlFor={`${id}-select`}>{t('settings.language.label')}</label>
        <select
          id={`${id}-select`}
          value={locale}
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            const next = e.target.value;
            if ((LOCALES as readonly string[]).includes(next)) setLocale(next as Locale);
          }}
        >
          {LOCALES.map((l) => (
            <option key={l} value={l} lang={l}>
              {t(`settings.language.${l}`)}
            </option>
          ))}
        </select>
        <p id={`${id}-hint`} className="settings-hint">
          {t('settings.language.hint')}
        </p>
      </div>
    </section>
  );
}
