import type { CairnEvent } from '../../../sidecar/src/protocol';
import { type EventSource, messageOf } from './session-controller';

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

/** The state of a controller that keeps one view: the view once read, and what went wrong reading it. */
export interface ViewSnapshot<V> {
  view: V | null;
  error: string | null;
}

/**
 * A LiveController whose state is one view: read once the source is subscribed, the events that came
 * meanwhile folded in, then each live event it accepts applied on top.
 */
export abstract class ViewController<V> extends LiveController<ViewSnapshot<V>> {
  constructor(source: EventSource) {
    super(source, { view: null, error: null });
  }

  protected abstract accepts(event: CairnEvent): boolean;
  protected abstract apply(view: V, event: CairnEvent): V;

  /** Listens, reads the view and folds in the held events; the view, or null when reading failed (shown). */
  protected async begin(read: () => Promise<V>): Promise<V | null> {
    if (this.disposed) return null;
    this.listen();
    try {
      let view: V = await read();
      if (this.disposed) return null;
      for (const event of this.takeHeld()) if (this.accepts(event)) view = this.apply(view, event);
      this.update({ view, error: null });
      return view;
    } catch (error) {
      this.held = null;
      if (!this.disposed) this.update({ error: messageOf(error) });
      return null;
    }
  }

  protected onEvent(event: CairnEvent): void {
    const current = this.snapshot.view;
    if (!current || !this.accepts(event)) return;
    const view = this.apply(current, event);
    if (view !== current) this.update({ view });
  }
}
