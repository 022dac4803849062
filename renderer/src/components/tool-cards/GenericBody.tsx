import { useT } from '../../i18n/i18n';
import { isFinished } from '../tool-labels';
import { ArgumentsForm } from './ArgumentsForm';
import { type CallBodyProps, resultText } from './body-props';
import { CardSection, ResultLoadState } from './CardSection';
import { OutputText } from './OutputText';
import '../../i18n/messages/tool-bodies';

/** Any tool without a card of its own: its arguments as a form, then its result (the error first). */
export function GenericBody({ card, result, retry }: CallBodyProps) {
  const t = useT();
  const finished = isFinished(card.status);
  const text = resultText(card, result);
  const output = (
    <CardSection
      key="result"
      label={card.isError ? t('tool.error') : finished ? t('tool.result') : t('tool.output')}
    >
      {text === '' ? (
        <p className="tool-card-note">{finished ? t('tool.noOutput') : t('tool.waitingOutput')}</p>
      ) : (
        <OutputText text={text} live={!finished} error={card.isError} />
      )}
      <ResultLoadState result={result} retry={retry} />
    </CardSection>
  );
  const args = (
    <CardSection key="args" label={t('tool.arguments')}>
      <ArgumentsForm input={card.input} />
    </CardSection>
  );
  return <>{card.isError ? [output, args] : [args, output]}</>;
}
