import { Component, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { useT } from '../i18n/i18n';

function PartFailed({ message }: { message: string }) {
  const t = useT();
  return (
    <div className="part-failed" role="alert">
      <p className="tool-card-error">{t('part.loadFailed', { message })}</p>
      {/* A lazily loaded part that failed stays failed (React keeps the rejected import): only a reload
          fetches it again, e.g. after an update renamed the served chunks. */}
      <button type="button" className="conv-button" onClick={() => window.location.reload()}>
        {t('part.reload')}
      </button>
    </div>
  );
}

/**
 * Keeps a part that fails (its chunk did not load, or it threw while rendering) inside its own box: it
 * says so there with a Reload, and the rest of the window stays up instead of React unmounting the root.
 */
export class PartBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('A part of the window failed', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.error ? <PartFailed message={this.state.error.message} /> : this.props.children;
  }
}

/** A (lazily loaded) component inside its own PartBoundary; the same props. */
export function withPartBoundary<P extends object>(Part: ComponentType<P>): ComponentType<P> {
  const Bounded = (props: P) => (
    <PartBoundary>
      <Part {...props} />
    </PartBoundary>
  );
  Bounded.displayName = `Bounded(${Part.displayName ?? Part.name ?? 'Part'})`;
  return Bounded;
}
