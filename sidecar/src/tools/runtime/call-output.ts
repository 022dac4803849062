import type { Store } from '../../store/store';
import type { ToolProgress } from '../tool';
import { PieceWriter } from './call-pieces';

/** How much of one call's streamed output the journal keeps (its pieces keep the newest, always). */
export const JOURNAL_OUTPUT_CHARS = 2 * 1024 * 1024;
/** At most one `tool.progress` per call this often: progress is live status, not history. */
export const PROGRESS_INTERVAL_MS = 250;

/**
 * Where a running call's streamed output goes: its output pieces (all of it, the newest 20 kept) and the
 * journal's `tool.output` events, up to JOURNAL_OUTPUT_CHARS: a server left running in the background may
 * print for days. Its progress goes to the journal as `tool.progress`, at most one per PROGRESS_INTERVAL_MS;
 * the newest of those held back is written when the interval ends, or as the call ends.
 */
export class CallOutput {
  private pieces: PieceWriter | null = null;
  private journaled = 0;
  private progressAt = 0;
  private heldProgress: ToolProgress | null = null;
  private progressTimer: NodeJS.Timeout | null = null;
  /** Once the call has ended no progress is written: it would come after its `tool.finished`. */
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly call: { sessionId: string; turnId: string; callId: string; callDir: string },
  ) {}

  write(stream: 'stdout' | 'stderr', text: string): void {
    if (text.length === 0) return;
    this.writePiece(text);
    if (this.journaled >= JOURNAL_OUTPUT_CHARS) return;
    this.journaled += text.length;
    const over = this.journaled >= JOURNAL_OUTPUT_CHARS;
    this.store.events.append(this.call.sessionId, {
      type: 'tool.output',
      turn_id: this.call.turnId,
      tool_call_id: this.call.callId,
      stream,
      text: over
        ? `${text}\n[Cairn: further output goes only to the call's output pieces (ToolControl output).]\n`
        : text,
    });
  }

  /** Output the journal has already (a kernel's): to the pieces only. */
  writePiece(text: string): void {
    this.pieces ??= new PieceWriter(this.call.callDir);
    this.pieces.write(text);
  }

  progress(progress: ToolProgress): void {
    if (this.closed) return;
    const wait = this.progressAt + PROGRESS_INTERVAL_MS - Date.now();
    if (wait <= 0 && !this.progressTimer) {
      this.journalProgress(progress);
      return;
    }
    this.heldProgress = progress;
    this.progressTimer ??= setTimeout(() => {
      this.progressTimer = null;
      this.flushProgress();
    }, wait);
  }

  /** The call ended: the progress held back is written (before its end), what is pending becomes the last piece. */
  close(): void {
    this.closed = true;
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.progressTimer = null;
    this.flushProgress();
    this.pieces?.close();
  }

  private flushProgress(): void {
    const held = this.heldProgress;
    this.heldProgress = null;
    if (held) this.journalProgress(held);
  }

  private journalProgress(progress: ToolProgress): void {
    this.progressAt = Date.now();
    try {
      this.store.events.append(this.call.sessionId, {
        type: 'tool.progress',
        turn_id: this.call.turnId,
        tool_call_id: this.call.callId,
        ...progress,
      });
    } catch {
      // The session was deleted while the call ran: there is nobody to tell.
    }
  }
}
