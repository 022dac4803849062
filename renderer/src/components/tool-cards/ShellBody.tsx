import { useI18n } from '../../i18n/i18n';
import { CodeView } from '../CodeView';
import { isFinished } from '../tool-labels';
import { execCommandLine, inputText } from '../tool-summary';
import { useDurationFormat } from '../use-elapsed';
import { type CallBodyProps, resultText } from './body-props';
import { CardSection, ResultLoadState } from './CardSection';
import { OutputText } from './OutputText';
import '../../i18n/messages/tool-bodies';

/** Bash and Exec: the command highlighted, how it ended (exit code, time), and its coloured output. */
export function ShellBody({ card, result, retry }: CallBodyProps) {
  const { t, formatNumber } = useI18n();
  const formatDuration = useDurationFormat();
  const finished = isFinished(card.status);
  const command = card.name === 'Exec' ? execCommandLine(card.input) : inputText(card.input, 'command');
  const text = resultText(card, result);
  const facts: string[] = [];
  if (card.exitCode !== null) facts.push(t('tool.shell.exitCode', { code: formatNumber(card.exitCode) }));
  if (finished && card.durationMs !== null) facts.push(formatDuration(card.durationMs, false));
  const signal = card.meta?.signal;
  if (typeof signal === 'string') facts.push(t('tool.shell.signal', { signal }));
  if (card.meta?.timed_out === true) facts.push(t('tool.shell.timedOut'));

  const output = (
    <CardSection key="output" label={card.isError ? t('tool.error') : t('tool.output')}>
      {facts.length > 0 && (
        <p className={card.isError ? 'tool-card-facts tool-card-facts--error' : 'tool-card-facts'}>
          {facts.join(' · ')}
        </p>
      )}
      {text === '' ? (
        <p className="tool-card-note">{finished ? t('tool.noOutput') : t('tool.waitingOutput')}</p>
      ) : (
        <OutputText text={text} live={!finished} error={card.isError} />
      )}
      <ResultLoadState result={result} retry={retry} />
    </CardSection>
  );
  const commandSection = command !== null && (
    <CardSection key="command" label={t('tool.shell.command')}>
      <CodeView code={command} language="bash" />
    </CardSection>
  );
  // A failed command shows what went wrong first.
  return <>{card.isError ? [output, commandSection] : [commandSection, output]}</>;
}
