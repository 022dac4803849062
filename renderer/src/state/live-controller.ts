import type { CairnEvent } from '../../../sidecar/src/protocol';
import type { EventSource } from './session-controller';

/**
 * What a side-panel controller of one session shares: a snapshot React reads (subscribe / getSnapshot), the
 * session's live events, held back while the first read is out so the two overlap without a gap, and
 * disposal. Subclasses read their start state and apply events.
 */
export abstract class LiveController<S> {
  protected snapshot: S;
  private readonly listeners = new Set<() => void>();
  /** Live events held back until the first read has been folded in; null once it has. */
  protected held: CairnEvent[] | null = [];
  private unlisten: (() => void) | null = null;
  protected disposed = false;

  constructor(
    private readonly source: EventSource,
    initial: S,
  ) {
    this.snapshot = initial;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): S => this.snapshot;

  dispose(): void {
    this.disposed = true;
    this.unlisten?.();
    this.listeners.clear();
  }

  /** Starts listening; call once the source is subscribed, before the first read. */
  protected listen(): void {
    this.unlisten = this.source.listen((event) => {
      if (this.held) this.held.push(event);
      else this.onEvent(event);
    });
  }

  /** The events that came while the first read was out, once; afterwards they go to onEvent. */
  protected takeHeld(): CairnEvent[] {
    const held = this.held ?? [];
    this.held = null;
    return held;
  }

  protected abstract onEvent(event: CairnEvent): void;

  protected update(patch: Partial<S>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of this.listeners) listener();
  }
}
