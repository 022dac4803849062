import { useT } from '../../i18n/i18n';
import { isFinished } from '../tool-labels';
import { inputField, inputText } from '../tool-summary';
import { ArgumentsForm } from './ArgumentsForm';
import { type CallBodyProps, resultText } from './body-props';
import { CardSection, ResultLoadState } from './CardSection';
import { ChangeDiff } from './ChangeDiff';
import { ErrorSection } from './ErrorSection';
import { FilePathLine, inputPath } from './FilePathLine';
import '../../i18n/messages/file-cards';

/** Edit: the file and its change as a diff (unified or side by side); a failed edit shows its error first. */
export function EditBody({ card, result, retry }: CallBodyProps) {
  const t = useT();
  const before = inputText(card.input, 'old_string');
  const after = inputText(card.input, 'new_string');
  const everywhere = inputField(card.input, 'replace_all') === true;
  const done = isFinished(card.status) && !card.isError ? resultText(card, result) : '';
  const change = (
    <CardSection label={card.isError ? t('file.attempted') : t('file.change')}>
      <FilePathLine path={inputPath(card.input)}>
        {everywhere && <span className="tool-card-badge">{t('file.everyOccurrence')}</span>}
      </FilePathLine>
      {before !== null && after !== null ? (
        <ChangeDiff before={before} after={after} />
      ) : (
        // Input the tool would refuse: show what was sent.
        <ArgumentsForm input={card.input} />
      )}
      {done !== '' && <p className="tool-card-facts">{done}</p>}
      {!card.isError && <ResultLoadState result={result} retry={retry} />}
    </CardSection>
  );
  if (!card.isError) return change;
  return (
    <>
      <ErrorSection card={card} result={result} retry={retry} />
      {change}
    </>
  );
}
