import { useT } from '../../i18n/i18n';
import { MarkedText } from '../MarkedText';
import { prettyJson } from '../tool-summary';
import '../../i18n/messages/tool-bodies';

/** One argument's value as text: strings as they are, anything else as indented JSON. */
function valueText(value: unknown): string {
  return typeof value === 'string' ? value : prettyJson(value);
}

/**
 * A call's arguments as a readable form: each field's name and its value (long or structured values in
 * their own box), never one block of JSON. Input that is not an object shows as its value.
 */
export function ArgumentsForm({ input }: { input: unknown }) {
  const t = useT();
  if (input === undefined || input === null) return null;
  const entries =
    typeof input === 'object' && !Array.isArray(input)
      ? Object.entries(input as Record<string, unknown>)
      : [['', input] as const];
  if (entries.length === 0) return <p className="tool-card-note">{t('tool.noArguments')}</p>;
  return (
    <dl className="tool-args">
      {entries.map(([key, value]) => {
        const text = valueText(value);
        const block = text.includes('\n') || text.length > 80 || typeof value === 'object';
        return (
          <div key={key} className="tool-args-row">
            {key !== '' && <dt className="tool-args-key">{key}</dt>}
            <dd className={block ? 'tool-args-value tool-args-value--block' : 'tool-args-value'}>
              {block ? (
                <pre className="tool-card-pre">
                  <MarkedText text={text} />
                </pre>
              ) : (
                <MarkedText text={text} />
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
