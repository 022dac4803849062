import type { Backend, StreamState } from '../../../sidecar/src/client';
import type { BackendInfo, DesktopBridge } from '../../../sidecar/src/protocol';
import { bridgeErrorMessage } from '../api/connection';

export interface BackendReconnectorOptions {
  bridge: Pick<DesktopBridge, 'getBackend'>;
  /** The backend the app talks to now. */
  current: Backend;
  /** The host has a different backend (a restarted sidecar: new port, new token). */
  onChanged(next: BackendInfo): void;
  /** The host gave up (getBackend rejected); its message says why. */
  onLost(message: string): void;
  /** Whether it is waiting on the host, so the app can say "reconnecting" instead of "token rejected". */
  onAsking?(asking: boolean): void;
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
}

/**
 * Inside the desktop app, a lost or refused event stream may mean the host restarted a crashed sidecar,
 * which then has a new port and a new token. This asks the host for its backend again (getBackend waits
 * for a restarting sidecar) and reports a changed one; while the host keeps answering with the same
 * backend and the stream stays down, it asks again with backoff, since the host may not have noticed the
 * crash yet. A refused token with the same backend is final: the app says the token was rejected.
 */
export class BackendReconnector {
  private streamState: StreamState = 'connecting';
  private inFlight = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private asking = false;
  private done = false;

  constructor(private readonly options: BackendReconnectorOptions) {}

  /** Feed it every state of the event stream. */
  streamStateChanged(state: StreamState): void {
    this.streamState = state;
    if (state === 'open') {
      this.attempt = 0;
      this.clearTimer();
      this.setAsking(this.inFlight);
    } else if (state === 'down' || state === 'rejected') {
      this.ask();
    }
  }

  /** Asks at once (the user pressed "Reconnect now"). */
  askNow(): void {
    this.clearTimer();
    this.ask();
  }

  dispose(): void {
    this.done = true;
    this.clearTimer();
  }

  private ask(): void {
    if (this.done || this.inFlight || this.timer) return;
    this.inFlight = true;
    this.setAsking(true);
    this.options.bridge.getBackend().then(
      (info) => this.answered(info),
      (error: unknown) => {
        this.inFlight = false;
        if (this.done) return;
        this.done = true;
        this.setAsking(false);
        this.options.onLost(bridgeErrorMessage(error));
      },
    );
  }

  private answered(info: BackendInfo): void {
    this.inFlight = false;
    if (this.done) return;
    const { current } = this.options;
    if (info.url !== current.url || info.token !== current.token) {
      this.done = true;
      this.options.onChanged(info);
      return;
    }
    if (this.streamState === 'down') {
      this.attempt += 1;
      const base = this.options.retryDelayMs ?? 500;
      const delay = Math.min(this.options.maxRetryDelayMs ?? 5000, base * 2 ** Math.min(this.attempt - 1, 8));
      this.timer = setTimeout(() => {
        this.timer = null;
        if (this.streamState === 'down') this.ask();
        else this.setAsking(false);
      }, delay);
      return;
    }
    // Open again, or refused with the very backend the host still has: nothing to swap.
    this.setAsking(false);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private setAsking(asking: boolean): void {
    if (asking === this.asking) return;
    this.asking = asking;
    this.options.onAsking?.(asking);
  }
}
