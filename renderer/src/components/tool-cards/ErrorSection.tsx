import { useT } from '../../i18n/i18n';
import { ArgumentsForm } from './ArgumentsForm';
import { type CallBodyProps, resultText } from './body-props';
import { CardSection, ResultLoadState } from './CardSection';
import { OutputText } from './OutputText';
import '../../i18n/messages/file-cards';
import '../../i18n/messages/tool-bodies';

/** A failed call's error, shown first in its card: what the tool said went wrong. */
export function ErrorSection({ card, result, retry }: Pick<CallBodyProps, 'card' | 'result' | 'retry'>) {
  const t = useT();
  const text = resultText(card, result);
  return (
    <CardSection label={t('tool.error')}>
      {text === '' ? (
        <p className="tool-card-note">{t('tool.noOutput')}</p>
      ) : (
        <OutputText text={text} live={false} error />
      )}
      <ResultLoadState result={result} retry={retry} />
    </CardSection>
  );
}

/** A failed call whose body shows nothing of its own: the error, then the arguments it was given. */
export function FailedCall({ card, result, retry }: Pick<CallBodyProps, 'card' | 'result' | 'retry'>) {
  const t = useT();
  return (
    <>
      <ErrorSection card={card} result={result} retry={retry} />
      <CardSection label={t('file.attempted')}>
        <ArgumentsForm input={card.input} />
      </CardSection>
    </>
  );
}
