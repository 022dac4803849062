import { useMemo } from 'react';
import { type Translate, useI18n } from '../../i18n/i18n';
import { CodeView } from '../CodeView';
import { CopyButton } from '../CopyButton';
import { languageForPath } from '../code-language';
import { isFinished } from '../tool-labels';
import { type CallBodyProps, resultComplete, resultText } from './body-props';
import { CardSection, ResultLoadState } from './CardSection';
import { FailedCall } from './ErrorSection';
import { FilePathLine, inputPath } from './FilePathLine';
import { OutputText } from './OutputText';
import { parseReadResult, READ_LINE_LIMIT, type ReadLines } from './read-result';
import '../../i18n/messages/file-cards';

function rangeText(read: ReadLines, t: Translate, formatNumber: (n: number) => string): string {
  const from = formatNumber(read.from);
  const to = formatNumber(read.to);
  if (read.total !== null) return t('file.read.rangeOf', { from, to, total: formatNumber(read.total) });
  if (read.from === 1 && read.next === null) {
    return read.to === 1 ? t('file.read.wholeOne') : t('file.read.whole', { count: to });
  }
  return t('file.read.range', { from, to });
}

/** The lines read, highlighted by the file's language, with their numbers in a gutter beside them. */
function ReadView({ read, path }: { read: ReadLines; path: string }) {
  const { t, formatNumber } = useI18n();
  const numbers = useMemo(
    () => Array.from({ length: read.to - read.from + 1 }, (_, i) => String(read.from + i)).join('\n'),
    [read.from, read.to],
  );
  const language = languageForPath(path);
  return (
    <>
      <p className="read-range">
        <span>{rangeText(read, t, formatNumber)}</span>
        <span className="read-language">{language ?? t('conversation.code.plain')}</span>
        <CopyButton text={read.code} label={t('file.copyCode')} />
      </p>
      <div className="read-view" data-from={read.from}>
        <pre className="read-gutter" aria-hidden="true">
          {numbers}
        </pre>
        <CodeView code={read.code} language={language} />
      </div>
      {read.cut.length > 0 && (
        <p className="tool-card-note">
          {t(read.cut.length === 1 ? 'file.read.cutOne' : 'file.read.cut', {
            lines: read.cut.map((line) => formatNumber(line)).join(', '),
            limit: formatNumber(READ_LINE_LIMIT),
          })}
        </p>
      )}
      {read.next !== null && (
        <p className="tool-card-note">{t('file.read.continues', { next: formatNumber(read.next) })}</p>
      )}
    </>
  );
}

/** Read: the file, the range read and its lines with numbers; a failed read shows its error first. */
export function ReadBody({ card, result, retry }: CallBodyProps) {
  const { t } = useI18n();
  const path = inputPath(card.input);
  const finished = isFinished(card.status);
  const text = resultText(card, result);
  const read = useMemo(
    () => (finished && !card.isError && resultComplete(card, result) ? parseReadResult(text) : null),
    [finished, card, result, text],
  );
  if (card.isError) return <FailedCall card={card} result={result} retry={retry} />;
  return (
    <CardSection label={t('file.read.label')}>
      <FilePathLine path={path} />
      {read !== null ? (
        <ReadView read={read} path={path} />
      ) : text === '' ? (
        <p className="tool-card-note">{finished ? t('tool.noOutput') : t('tool.waitingOutput')}</p>
      ) : (
        // A preview while the whole result loads, or a sentence such as "the file is empty".
        <OutputText text={text} live={!finished} />
      )}
      <ResultLoadState result={result} retry={retry} />
    </CardSection>
  );
}
