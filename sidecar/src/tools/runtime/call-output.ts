import type { Store } from '../../store/store';
import { PieceWriter } from './call-pieces';

/** How much of one call's streamed output the journal keeps (its pieces keep the newest, always). */
export const JOURNAL_OUTPUT_CHARS = 2 * 1024 * 1024;

/**
 * Where a running call's streamed output goes: its output pieces (all of it, the newest 20 kept) and the
 * journal's `tool.output` events, up to JOURNAL_OUTPUT_CHARS: a server left running in the background may
 * print for days.
 */
export class CallOutput {
  private pieces: PieceWriter | null = null;
  private journaled = 0;

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

  /** The call ended: what is pending becomes the last piece. */
  close(): void {
    this.pieces?.close();
  }
}
