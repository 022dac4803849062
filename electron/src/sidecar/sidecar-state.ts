// What the supervisor tells the rest of the host: its state, the backend, and why there is none.
import type { ErrorCode } from '../../../sidecar/src/protocol/errors';

/** What the host shows about its sidecar. Never holds the token. */
export type SidecarState =
  | { kind: 'starting' }
  | { kind: 'ready'; url: string; port: number }
  | { kind: 'restarting'; attempt: number; delayMs: number; lastExitCode: number | null }
  | { kind: 'failed'; message: string; stderrTail: string; diagnosticsFile: string | null }
  | { kind: 'stopped' };

export interface SidecarBackend {
  url: string;
  token: string;
}

/** Why backend() will not give a backend: the supervisor gave up, or was stopped. */
export class SidecarFailure extends Error {
  readonly code: Extract<ErrorCode, 'sidecar_failed' | 'sidecar_stopped'>;
  readonly stderrTail: string;
  readonly diagnosticsFile: string | null;

  constructor(
    code: SidecarFailure['code'],
    message: string,
    details: { stderrTail?: string; diagnosticsFile?: string | null } = {},
  ) {
    super(message);
    this.name = 'SidecarFailure';
    this.code = code;
    this.stderrTail = details.stderrTail ?? '';
    this.diagnosticsFile = details.diagnosticsFile ?? null;
  }
}
