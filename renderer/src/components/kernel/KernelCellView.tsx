import { memo } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { KernelRichOutput } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import type { KernelCell } from '../../state/kernel-view';
import { AnsiText } from '../AnsiText';
import { isImage, KernelImage } from './KernelImage';
import '../../i18n/messages/kernels';

/** Rich output: its images, else its plain text. */
function RichOutput({ client, output }: { client: CairnClient; output: KernelRichOutput }) {
  const images = output.artifacts.filter(isImage);
  if (images.length > 0) {
    return (
      <div className="kernel-display">
        {images.map((artifact) => (
          <KernelImage key={artifact.id} client={client} artifact={artifact} />
        ))}
      </div>
    );
  }
  if (output.text === null) return null;
  return (
    <pre className="kernel-output kernel-display">
      <AnsiText text={output.text} />
    </pre>
  );
}

/** One execution: its code, output as it streamed, rich output, error, and the value of its last line. */
export const KernelCellView = memo(function KernelCellView({
  client,
  cell,
}: {
  client: CairnClient;
  cell: KernelCell;
}) {
  const t = useT();
  const status =
    cell.status === 'running'
      ? t('kernel.cell.running')
      : cell.status === 'waiting_input'
        ? t('kernel.cell.waiting')
        : cell.executionTimeMs !== null
          ? t('kernel.cell.time', { ms: Math.round(cell.executionTimeMs) })
          : null;
  return (
    <article
      className={`kernel-cell kernel-cell-${cell.status}`}
      data-testid="kernel-cell"
      data-status={cell.status}
    >
      <header className="kernel-cell-header">
        <span className="kernel-cell-origin">
          {cell.toolCallId ? t('kernel.by.agent') : t('kernel.by.user')}
        </span>
        {status && <span className="muted">{status}</span>}
      </header>
      <pre className="kernel-code">{cell.code}</pre>
      {cell.outputs.map((output, i) =>
        output.kind === 'stream' ? (
          <pre
            // biome-ignore lint/suspicious/noArrayIndexKey: outputs only ever grow at the end
            key={i}
            className={`kernel-output kernel-${output.stream}`}
            data-stream={output.stream}
          >
            <AnsiText text={output.text} />
          </pre>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: outputs only ever grow at the end
          <RichOutput key={i} client={client} output={output.output} />
        ),
      )}
      {cell.returnValue && (
        <div className="kernel-result" data-testid="kernel-result">
          <RichOutput client={client} output={cell.returnValue} />
        </div>
      )}
      {cell.error && (
        <div className="kernel-error" role="alert">
          <p className="error-text">{cell.error.summary}</p>
          {cell.error.traceback.length > 0 && (
            <details>
              <summary>{t('kernel.traceback')}</summary>
              <pre className="kernel-output">
                <AnsiText text={cell.error.traceback.join('\n')} />
              </pre>
            </details>
          )}
        </div>
      )}
      {cell.failure && (
        <p className="error-text" role="alert">
          {cell.status === 'died'
            ? t('kernel.cell.died', { message: cell.failure.message })
            : cell.failure.message}
        </p>
      )}
      {cell.limit && (
        <p className="muted kernel-note">
          {t(`kernel.limit.${cell.limit.kind}`, {
            seconds: Math.round(cell.limit.limit_ms / 1000),
            action: t(`kernel.limit.${cell.limit.action}`),
          })}
        </p>
      )}
      {cell.stateLost && (
        <p className="muted kernel-note">{t('kernel.cell.stateLost', { reason: cell.stateLost })}</p>
      )}
    </article>
  );
});
