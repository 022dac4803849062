import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import { useT } from '../../i18n/i18n';
import type { KernelController } from '../../state/kernel-controller';
import { pendingInput } from '../../state/kernel-view';
import { ConfirmDialog } from '../ConfirmDialog';
import { downloadBlob } from '../download-blob';
import { KernelCellView } from './KernelCellView';
import { KernelEditor, KernelInputBox } from './KernelInputs';
import { KernelVariables } from './KernelVariables';
import '../../i18n/messages/kernels';

/** The kernel the user's first cell starts (the agent's default kernel too). */
export const DEFAULT_KERNEL = 'default';

/** The session's Python kernels: their cells as they run, input, variables, and a cell of the user's own. */
export function KernelPanel({ client, controller }: { client: CairnClient; controller: KernelController }) {
  const t = useT();
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  const kernels = snapshot.state.kernels;
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmRestart, setConfirmRestart] = useState(false);
  const name = chosen ?? kernels[0]?.name ?? DEFAULT_KERNEL;
  const kernel = kernels.find((k) => k.name === name) ?? null;
  const waiting = kernel ? pendingInput(kernel) : null;
  const busy = kernel?.state === 'busy' || kernel?.state === 'waiting_input';

  // Follow new output while the reader is at the bottom of the cells.
  const cellsRef = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const lastCell = kernel?.cells.at(-1);
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the newest cell changes
  useLayoutEffect(() => {
    const el = cellsRef.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [lastCell, kernel?.cells.length]);

  // A previous kernel's error does not belong to the next one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a change of kernel only
  useEffect(() => setError(null), [name]);

  const act = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const exportNotebook = () =>
    act(async () => {
      const blob = await controller.notebook(name);
      downloadBlob(blob, `${name}.ipynb`);
    });

  return (
    <section className="kernel-panel" aria-label={t('kernel.panel')}>
      <header className="kernel-panel-header">
        <h2>{t('kernel.panel')}</h2>
        {kernels.length > 1 && (
          <div className="kernel-tabs" role="tablist" aria-label={t('kernel.tabs')}>
            {kernels.map((k) => (
              <button
                key={k.name}
                type="button"
                role="tab"
                aria-selected={k.name === name}
                className={k.name === name ? 'kernel-tab active' : 'kernel-tab'}
                onClick={() => setChosen(k.name)}
              >
                {k.name}
              </button>
            ))}
          </div>
        )}
        {kernel && (
          <p className="kernel-meta muted">
            <span className="mono">{kernel.name}</span>{' '}
            <span className={`kernel-state kernel-state-${kernel.state}`} data-testid="kernel-state">
              {t(`kernel.state.${kernel.state}`)}
            </span>
            {kernel.python && <> · {t('kernel.python', { version: kernel.python })}</>}
          </p>
        )}
        {kernel && (
          <div className="kernel-actions">
            <button
              type="button"
              className="small-button"
              disabled={!busy}
              onClick={() => void act(() => controller.interrupt(name))}
            >
              {t('kernel.interrupt')}
            </button>
            <button
              type="button"
              className="small-button"
              disabled={kernel.state === 'not_started'}
              onClick={() => setConfirmRestart(true)}
            >
              {t('kernel.restart')}
            </button>
            <button
              type="button"
              className="small-button"
              disabled={kernel.cells.length === 0}
              onClick={() => void exportNotebook()}
            >
              {t('kernel.export')}
            </button>
          </div>
        )}
      </header>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {snapshot.error && (
        <p className="error-text" role="alert">
          {snapshot.error}
        </p>
      )}
      {kernel?.died && kernel.state === 'dead' && (
        <p className="error-text">{t('kernel.died', { message: kernel.died })}</p>
      )}
      <div
        className="kernel-cells"
        ref={cellsRef}
        onScroll={() => {
          const el = cellsRef.current;
          if (el) following.current = el.scrollHeight - el.scrollTop - el.clientHeight < 60;
        }}
      >
        {snapshot.loading && <p className="muted">{t('common.loading')}</p>}
        {!snapshot.loading && (!kernel || kernel.cells.length === 0) && (
          <p className="muted">{t('kernel.empty')}</p>
        )}
        {kernel?.cells.map((cell) => (
          <KernelCellView key={cell.executionId} client={client} cell={cell} />
        ))}
      </div>
      {waiting && (
        <KernelInputBox
          request={waiting.request}
          onSend={(value) => act(() => controller.reply(name, waiting.request.requestId, value))}
        />
      )}
      {kernel && <KernelVariables variables={kernel.variables} />}
      <KernelEditor kernel={name} onRun={(code) => act(() => controller.execute(name, code))} />
      {confirmRestart && (
        <ConfirmDialog
          message={t('kernel.confirmRestart', { name })}
          confirmLabel={t('kernel.restart')}
          onCancel={() => setConfirmRestart(false)}
          onConfirm={() => {
            setConfirmRestart(false);
            void act(() => controller.restart(name));
          }}
        />
      )}
    </section>
  );
}
