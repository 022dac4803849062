/** Shortest piece of a secret worth hiding at the tail's edges; shorter ones are ordinary text. */
const MIN_SECRET_PIECE = 8;

/**
 * The last part of a process's output, for a diagnostics file or an error dialog. It keeps whole
 * lines where it can, so a secret is not cut in half at the start, and redacts secrets when read.
 */
export class OutputTail {
  private text = '';

  constructor(private readonly limit = 64 * 1024) {}

  append(chunk: string): void {
    this.text += chunk;
    if (this.text.length <= this.limit) return;
    const cut = this.text.length - this.limit;
    const newline = this.text.indexOf('\n', cut);
    // Start at the next whole line, unless that would drop everything (one huge last line).
    const start = newline >= 0 && newline + 1 < this.text.length ? newline + 1 : cut;
    this.text = this.text.slice(start);
  }

  /** The tail with every secret replaced, including a piece of one cut off at either edge. */
  read(secrets: Iterable<string>): string {
    let out = this.text;
    for (const secret of secrets) {
      if (secret.length === 0) continue;
      out = out.split(secret).join('[redacted]');
      for (let length = secret.length - 1; length >= MIN_SECRET_PIECE; length -= 1) {
        if (out.startsWith(secret.slice(-length))) {
          out = `[redacted]${out.slice(length)}`;
          break;
        }
      }
      for (let length = secret.length - 1; length >= MIN_SECRET_PIECE; length -= 1) {
        if (out.endsWith(secret.slice(0, length))) {
          out = `${out.slice(0, out.length - length)}[redacted]`;
          break;
        }
      }
    }
    return out;
  }
}
