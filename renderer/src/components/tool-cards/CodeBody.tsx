import { useMemo } from 'react';
import { useI18n } from '../../i18n/i18n';
import { CodeView } from '../CodeView';
import { useStepCell } from '../code-mode/step-cell';
import { isFinished } from '../tool-labels';
import { inputText } from '../tool-summary';
import { useDurationFormat } from '../use-elapsed';
import { type CallBodyProps, resultText } from './body-props';
import { CardSection, ResultLoadState } from './CardSection';
import { CodeError } from './CodeError';
import { CodeFiles } from './CodeFiles';
import { type CodeResult, cellStreams, parseCodeResult } from './code-result';
import { GenericBody } from './GenericBody';
import { OutputText } from './OutputText';
import { stopNoteText } from './stop-note';
import '../../i18n/messages/code-card';
import '../../i18n/messages/tool-bodies';

/**
 * execute_code: the code as Python, then what it did — stdout, stderr (marked), the last value, images and
 * HTML inline, other files to download — with a failed cell's error first and its line pointed at.
 */
export function CodeBody(props: CallBodyProps) {
  const { card, result, retry, client } = props;
  const { t } = useI18n();
  const finished = isFinished(card.status);
  const code = inputText(card.input, 'code') ?? '';
  const text = resultText(card, result);
  const parsed = useMemo(() => (finished ? parseCodeResult(text) : null), [finished, text]);
  // The tool journals a cell's output as kernel events, not `tool.output`: while it runs, its streams come
  // from the kernel state of the open session (none outside one: then the card's own output, if any).
  const cell = useStepCell(finished ? null : card.toolCallId);
  const streams = useMemo(() => cellStreams(cell?.outputs ?? []), [cell]);
  // The whole result is on its way (an id to load it by); until then the code shows, and a quiet line.
  const coming = result.state === 'loading' || (result.state === 'idle' && card.toolCallId !== null);
  const waiting = finished && !parsed && coming;
  // A result of another shape (an old call, a cut preview with no whole result to load): shown as text.
  if (finished && !parsed && !waiting) return <GenericBody {...props} />;

  const codeSection = (
    <CardSection key="code" label={t('tool.code.code')}>
      <CodeView code={code} language="python" />
    </CardSection>
  );
  if (!parsed) {
    return (
      <>
        {codeSection}
        <CardSection key="output" label={t('tool.output')}>
          {waiting ? null : streams.stdout === '' && streams.stderr === '' && card.output === '' ? (
            <p className="tool-card-note">{t('tool.waitingOutput')}</p>
          ) : streams.stdout === '' && streams.stderr === '' ? (
            <OutputText text={card.output} live />
          ) : (
            <>
              {streams.stdout !== '' && (
                <div className="code-card-stream" data-stream="stdout">
                  <OutputText text={streams.stdout} live />
                </div>
              )}
              {streams.stderr !== '' && (
                <div className="code-card-stream code-card-stream--stderr" data-stream="stderr">
                  <h5 className="code-card-stream-label">{t('tool.code.stderr')}</h5>
                  <OutputText text={streams.stderr} live error />
                </div>
              )}
            </>
          )}
          <ResultLoadState result={result} retry={retry} />
        </CardSection>
      </>
    );
  }
  const failed = !parsed.success;
  return (
    <>
      {failed && (
        <CardSection key="error" label={t('tool.error')} className="code-card-error-section">
          <CodeError details={parsed.errorDetails} summary={parsed.error} code={code} />
        </CardSection>
      )}
      <Notes result={parsed} />
      {codeSection}
      <Outputs result={parsed} client={client} />
    </>
  );
}

/** What happened to the kernel around the run: a restart that lost its state, a limit that stopped it. */
function Notes({ result }: { result: CodeResult }) {
  const { t } = useI18n();
  const formatDuration = useDurationFormat();
  const { stateLost, limit, note } = result;
  if (!stateLost && !limit && !note) return null;
  return (
    <div className="code-card-notes" role="note">
      {note && <p className="tool-card-facts">{stopNoteText(note, t)}</p>}
      {limit && (
        <p className="tool-card-facts tool-card-facts--error">
          {t(`tool.code.limit.${limit.kind}`, {
            time: formatDuration(limit.limitMs, true),
            action: t(`tool.code.limit.${limit.action}`),
          })}
        </p>
      )}
      {stateLost && (
        <p className="tool-card-facts tool-card-facts--error">
          {t('tool.code.stateLost', { reason: stateLost })}
        </p>
      )}
    </div>
  );
}

function Outputs({ result, client }: { result: CodeResult } & Pick<CallBodyProps, 'client'>) {
  const { t } = useI18n();
  const formatDuration = useDurationFormat();
  const displays = shownDisplays(result);
  const nothing =
    result.stdout === '' &&
    result.stderr === '' &&
    result.returnValue === null &&
    displays.length === 0 &&
    result.files.length === 0;
  return (
    <CardSection key="output" label={t('tool.output')} className="code-card-outputs">
      {result.executionTimeMs !== null && (
        <p className="tool-card-facts">
          {t('tool.code.ranIn', { time: formatDuration(result.executionTimeMs, false) })}
        </p>
      )}
      {nothing && <p className="tool-card-note">{t('tool.noOutput')}</p>}
      {result.stdout !== '' && (
        <div className="code-card-stream" data-stream="stdout">
          <h5 className="code-card-stream-label">{t('tool.code.stdout')}</h5>
          <OutputText text={result.stdout} live={false} />
        </div>
      )}
      {result.stderr !== '' && (
        <div className="code-card-stream code-card-stream--stderr" data-stream="stderr">
          <h5 className="code-card-stream-label">{t('tool.code.stderr')}</h5>
          <OutputText text={result.stderr} live={false} error />
        </div>
      )}
      {displays.length > 0 && (
        <div className="code-card-stream" data-stream="displays">
          <h5 className="code-card-stream-label">{t('tool.code.displays')}</h5>
          <OutputText text={displays.join('\n')} live={false} />
        </div>
      )}
      <CodeFiles client={client} files={result.files} />
      {result.returnValue !== null && (
        <div className="code-card-stream" data-stream="value">
          <h5 className="code-card-stream-label">{t('tool.code.value')}</h5>
          <OutputText text={result.returnValue} live={false} />
        </div>
      )}
    </CardSection>
  );
}

/** A rich output's plain text is its repr (`<Figure size 640x480 with 1 Axes>`): noise beside the output itself. */
const OBJECT_REPR = /^<[^\n]*>$/;

function shownDisplays(result: CodeResult): string[] {
  return result.files.length > 0
    ? result.displays.filter((d) => !OBJECT_REPR.test(d.trim()))
    : result.displays;
}
