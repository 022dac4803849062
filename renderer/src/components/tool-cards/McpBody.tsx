import { useI18n } from '../../i18n/i18n';
import { MarkdownView } from '../MarkdownView';
import { hasMcpResultFile, McpResultDownload } from '../mcp/McpResultDownload';
import { isFinished } from '../tool-labels';
import { ArgumentsForm } from './ArgumentsForm';
import { type CallBodyProps, resultComplete, resultText } from './body-props';
import { CardSection, ResultLoadState } from './CardSection';
import { mcpNames } from './call-kind';
import { McpAttachmentView } from './McpAttachmentView';
import { withoutSavedNote } from './mcp-attachments';
import { OutputText } from './OutputText';
import { ProgressView } from './ToolProgressView';
import { useMcpAttachments } from './use-mcp-attachments';
import '../../i18n/messages/tool-bodies';

/** Above this many characters a result is not parsed as Markdown: 1 MB of it blocks the window for seconds. */
export const MAX_MARKDOWN_CHARS = 100_000;

/**
 * An MCP tool's call: its latest progress while it runs, which server and tool, its arguments as a form, its
 * text result as Markdown, and the images it returned inline (other content named, each with its download).
 */
export function McpBody({ card, result, retry, client }: CallBodyProps) {
  const { t, formatNumber } = useI18n();
  const names = mcpNames(card.name);
  const finished = isFinished(card.status);
  const raw = resultText(card, result);
  const complete = resultComplete(card, result);
  const { text } = withoutSavedNote(raw);
  const saved = finished && complete && hasMcpResultFile(card.name, raw);
  const attachments = useMcpAttachments(client, card.toolCallId, saved);

  const resultSection = (
    <CardSection key="result" label={card.isError ? t('tool.error') : t('tool.result')}>
      {!finished ? (
        text === '' ? (
          <p className="tool-card-note">{t('tool.waitingOutput')}</p>
        ) : (
          <OutputText text={text} live />
        )
      ) : text.trim() === '' ? (
        <p className="tool-card-note">{t('tool.noOutput')}</p>
      ) : text.length > MAX_MARKDOWN_CHARS ? (
        <>
          <p className="tool-card-note">{t('tool.mcp.plain', { count: formatNumber(text.length) })}</p>
          <OutputText text={text} live={false} error={card.isError} />
        </>
      ) : (
        <div className={card.isError ? 'mcp-result mcp-result--error' : 'mcp-result'}>
          <MarkdownView text={text} />
        </div>
      )}
      <ResultLoadState result={result} retry={retry} />
    </CardSection>
  );
  const attachmentSection = saved && (
    <CardSection key="attachments" label={t('tool.mcp.attachments')}>
      {attachments.state === 'loading' && <p className="tool-card-note">{t('tool.mcp.loading')}</p>}
      {attachments.state === 'error' && (
        <p className="tool-card-error" role="alert">
          {t('tool.mcp.loadError', { message: attachments.message })}
        </p>
      )}
      {attachments.state === 'loaded' &&
        attachments.attachments.map((attachment, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the saved items never change or reorder
          <McpAttachmentView key={i} attachment={attachment} index={i} />
        ))}
      {card.toolCallId && (
        <div className="tool-card-actions">
          <McpResultDownload client={client} toolCallId={card.toolCallId} />
        </div>
      )}
    </CardSection>
  );
  const progressSection = !finished && card.progress && (
    <CardSection key="progress" label={t('tool.mcp.progress')}>
      <ProgressView progress={card.progress} label={t('tool.mcp.progress')} />
    </CardSection>
  );
  const args = (
    <CardSection key="args" label={t('tool.arguments')}>
      <p className="tool-card-facts">
        {t('tool.mcp.origin', { server: names?.server ?? '', tool: names?.tool ?? card.name })}
      </p>
      <ArgumentsForm input={card.input} />
    </CardSection>
  );
  return (
    <>
      {progressSection}
      {card.isError ? [resultSection, args, attachmentSection] : [args, resultSection, attachmentSection]}
    </>
  );
}
