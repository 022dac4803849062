import type { ReactNode } from 'react';
import { type Translate, useT } from '../../i18n/i18n';
import { CodeView } from '../CodeView';
import { languageForPath } from '../code-language';
import { isFinished } from '../tool-labels';
import { inputText } from '../tool-summary';
import { ArgumentsForm } from './ArgumentsForm';
import { type CallBodyProps, resultText } from './body-props';
import { CardSection, ResultLoadState } from './CardSection';
import { ChangeDiff } from './ChangeDiff';
import { ErrorSection } from './ErrorSection';
import { FilePathLine, inputPath } from './FilePathLine';
import type { Loaded } from './use-load-when';
import { usePreviousContent } from './use-previous-content';
import '../../i18n/messages/file-cards';

/** Why the card shows the new file rather than a diff of a file it replaced, or null. */
function noDiffNote(previous: Loaded<string>, kept: boolean, t: Translate): string | null {
  if (!kept) return t('file.write.previousNotKept');
  if (previous.state === 'loading') return t('file.write.previousLoading');
  if (previous.state === 'error') return t('file.write.previousError', { message: previous.message });
  return null;
}

/**
 * Write: the new file highlighted by its language, or, when it replaced a file whose old text was kept,
 * the change as a diff. A failed write shows its error first.
 */
export function WriteBody({ card, result, retry, client }: CallBodyProps) {
  const t = useT();
  const path = inputPath(card.input);
  const content = inputText(card.input, 'content');
  const ended = isFinished(card.status) && !card.isError;
  const replaced = ended && card.meta?.replaced === true;
  const kept = card.meta?.previous_saved === true;
  const previous = usePreviousContent(client, card.toolCallId, replaced && kept);
  const done = ended ? resultText(card, result) : '';

  let view: ReactNode;
  if (content === null) view = <ArgumentsForm input={card.input} />;
  else if (previous.state === 'loaded') view = <ChangeDiff before={previous.value} after={content} />;
  else if (content === '') view = <p className="tool-card-note">{t('file.write.empty')}</p>;
  // The code block ends every text with a line break of its own: a file's final one would show as an extra line.
  else view = <CodeView code={content.replace(/\n$/, '')} language={languageForPath(path)} />;
  const note = replaced ? noDiffNote(previous, kept, t) : null;
  const label = card.isError
    ? t('file.attempted')
    : previous.state === 'loaded'
      ? t('file.write.changes')
      : t('file.write.content');

  const file = (
    <CardSection label={label}>
      <FilePathLine path={path} />
      {note !== null && <p className="tool-card-note">{note}</p>}
      {view}
      {done !== '' && <p className="tool-card-facts">{done}</p>}
      {!card.isError && <ResultLoadState result={result} retry={retry} />}
    </CardSection>
  );
  if (!card.isError) return file;
  return (
    <>
      <ErrorSection card={card} result={result} retry={retry} />
      {file}
    </>
  );
}
