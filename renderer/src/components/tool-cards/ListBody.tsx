import { useMemo, useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import { CopyButton } from '../CopyButton';
import { MarkedText } from '../MarkedText';
import { isFinished } from '../tool-labels';
import { type CallBodyProps, resultComplete, resultText } from './body-props';
import { CardSection, ResultLoadState } from './CardSection';
import { FailedCall } from './ErrorSection';
import { listNoteText } from './list-notes';
import { grepFiles, type ListEntry, parseListResult } from './list-result';
import { OutputText } from './OutputText';
import '../../i18n/messages/file-cards';

/** Entries shown before "Show all": a thousand rows with buttons would make the card slow to open. */
const FIRST_ENTRIES = 200;

function EntryView({ entry }: { entry: ListEntry }) {
  const { t, formatNumber } = useI18n();
  return (
    <li className="file-list-entry">
      <div className="file-list-path">
        <span className="file-list-path-text">
          <MarkedText text={entry.path} />
        </span>
        <CopyButton text={entry.path} label={t('file.copyPath', { path: entry.path })} />
      </div>
      {entry.matches.length > 0 && (
        <ol className="file-list-matches">
          {entry.matches.map((match, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a result's matches never reorder
            <li key={i} className="file-list-match">
              {match.line !== null && (
                <span className="file-list-line" title={t('file.list.line', { line: match.line })}>
                  {formatNumber(match.line)}
                </span>
              )}
              <code className="file-list-text">
                <MarkedText text={match.text} />
              </code>
            </li>
          ))}
        </ol>
      )}
    </li>
  );
}

/**
 * Glob and Grep: what they found as a list of paths, each with Copy, and one Copy for all of them; Grep's
 * matches under their file with line numbers. The tool's notes stay notes; nothing found is a quiet line.
 */
export function ListBody({ card, result, retry }: CallBodyProps) {
  const { t, formatNumber } = useI18n();
  const [all, setAll] = useState(false);
  const finished = isFinished(card.status);
  const text = resultText(card, result);
  const tool = card.name === 'Glob' ? 'Glob' : 'Grep';
  const list = useMemo(() => {
    if (!finished || card.isError || !resultComplete(card, result)) return null;
    // The live event drops a big meta; the loaded call has all of it.
    const meta = result.state === 'loaded' ? result.call.meta : card.meta;
    return parseListResult(tool, text, grepFiles(meta));
  }, [finished, card, result, text, tool]);
  if (card.isError) return <FailedCall card={card} result={result} retry={retry} />;
  const label = tool === 'Glob' ? t('file.list.files') : t('file.list.matches');
  if (list === null || list.kind === 'none') {
    return (
      <CardSection label={label}>
        {list !== null ? (
          <p className="tool-card-note">{listNoteText(list.text, t, formatNumber)}</p>
        ) : text === '' ? (
          <p className="tool-card-note">{finished ? t('tool.noOutput') : t('tool.waitingOutput')}</p>
        ) : (
          <OutputText text={text} live={!finished} />
        )}
        <ResultLoadState result={result} retry={retry} />
      </CardSection>
    );
  }
  const { entries, notes, matchCount } = list;
  const shown = all ? entries : entries.slice(0, FIRST_ENTRIES);
  const count =
    tool === 'Glob'
      ? t('file.list.fileCount', { count: formatNumber(entries.length) })
      : t('file.list.matchCount', { matches: formatNumber(matchCount), files: formatNumber(entries.length) });
  return (
    <CardSection label={label}>
      <p className="file-list-summary">
        <span>{count}</span>
        <CopyButton
          text={entries.map((entry) => entry.path).join('\n')}
          label={t('file.list.copyAll')}
          caption={t('file.list.copyAll')}
        />
      </p>
      <ul className="file-list">
        {shown.map((entry, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a path may come twice when a line did not parse
          <EntryView key={i} entry={entry} />
        ))}
      </ul>
      {shown.length < entries.length && (
        <button type="button" className="conv-button tool-card-more" onClick={() => setAll(true)}>
          {t('file.list.showMore', { count: formatNumber(entries.length - shown.length) })}
        </button>
      )}
      {notes.map((note) => (
        <p key={note} className="tool-card-note">
          {listNoteText(note, t, formatNumber)}
        </p>
      ))}
    </CardSection>
  );
}
