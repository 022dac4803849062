import type { Writable } from 'node:stream';
import type { CairnEvent, KernelArtifact, KernelRichOutput, Question } from '../protocol';
import { approvalLines } from './approval-text';
import { mcpServerLine, progressLine } from './mcp-lines';
import { hiddenWarning, revealHidden } from './reveal-hidden';

type KernelEventOf<T extends CairnEvent['type']> = Extract<CairnEvent, { type: T }>;

/**
 * Prints a turn's events: one JSON object a line, or readable text: the answer and what the agent's
 * Python cells print on stdout (a cell's stderr on stderr), notes on stderr.
 */
export class EventPrinter {
  /** The last text on stdout did not end its line; `source` says who wrote it (the answer or a cell). */
  private midLine = false;
  private source: string | null = null;
  private errMidLine = false;
  /** Background calls seen starting, by id, until they end. */
  private readonly background = new Map<string, string>();

  constructor(
    private readonly json: boolean,
    private readonly out: Writable,
    private readonly err: Writable,
    /** The project folder, to show the full path of a file a tool call asks to write. */
    private readonly workspace: string | null = null,
  ) {}

  print(event: CairnEvent): void {
    if (this.json) {
      this.out.write(`${JSON.stringify(event)}\n`);
      return;
    }
    switch (event.type) {
      case 'message.delta':
        this.write('message', event.text);
        return;
      case 'kernel.stream':
      case 'kernel.display':
      case 'kernel.input_request':
      case 'kernel.result':
      case 'kernel.error':
      case 'kernel.died':
        this.printKernel(event);
        return;
      case 'tool.started': {
        if (event.background) this.background.set(event.tool_call_id, event.name);
        const from = event.parent_tool_call_id ? ` (from the script of ${event.parent_tool_call_id})` : '';
        const where = event.background ? ` — in the background as ${event.tool_call_id}` : '';
        this.note(`▸ ${event.name} ${summarize(event.input)}${from}${where}`);
        return;
      }
      case 'tool.finished': {
        const name = this.background.get(event.tool_call_id);
        const code = event.exit_code !== null ? `, exit code ${event.exit_code}` : '';
        // A background call ends after its receipt, among other output: say which one it was.
        if (name !== undefined && event.status !== 'running') {
          this.background.delete(event.tool_call_id);
          this.note(
            `◂ background ${name} ${event.tool_call_id} ${event.status} after ${event.duration_ms} ms${code}`,
          );
          return;
        }
        this.note(`  ${event.status} in ${event.duration_ms} ms${code}`);
        return;
      }
      case 'llm.continuation':
        this.note(`(output limit reached: continuing, ${event.attempt}/${event.max_attempts})`);
        return;
      case 'question.required':
        for (const line of questionLines(event.question, this.workspace)) this.note(line);
        if (event.question.fork_id) this.note(`  asked by fork ${event.question.fork_id}`);
        return;
      case 'turn.failed':
        this.note(`✗ ${event.error.message}`);
        return;
      case 'turn.cancelled':
        this.note('Cancelled.');
        return;
      case 'turn.interrupted':
        this.note(`Interrupted: ${event.reason}`);
        return;
      case 'mcp.server':
        this.note(mcpServerLine(event));
        return;
      case 'tool.progress':
        this.note(progressLine(event));
        return;
      case 'fork.updated':
        this.note(`⑂ Fork ${event.fork.fork_id} (${event.fork.task}): ${event.fork.status}`);
        return;
      case 'context.compacted':
        this.note(
          `⟲ Context compacted (${event.level}): about ${event.tokens_before} → ${event.tokens_after} tokens, ` +
            `version ${event.version}${event.summary ? ', with a summary' : ''}.`,
        );
        return;
      case 'context.compaction_failed':
        this.note(
          `⟲ Compaction ${event.error.code === 'cancelled' ? 'cancelled' : 'failed'}: ${event.error.message}`,
        );
        return;
      default:
        return;
    }
  }

  end(): void {
    if (!this.json && this.midLine) this.out.write('\n');
    if (!this.json && this.errMidLine) this.err.write('\n');
  }

  private printKernel(
    event: KernelEventOf<
      | 'kernel.stream'
      | 'kernel.display'
      | 'kernel.input_request'
      | 'kernel.result'
      | 'kernel.error'
      | 'kernel.died'
    >,
  ): void {
    switch (event.type) {
      case 'kernel.stream':
        if (event.stream === 'stdout') this.write(`cell:${event.execution_id}`, event.text);
        else {
          this.breakOut();
          this.err.write(event.text);
          this.errMidLine = !event.text.endsWith('\n');
        }
        return;
      case 'kernel.display':
        this.writeLines(`cell:${event.execution_id}`, richLines(event));
        return;
      case 'kernel.input_request':
        this.note(
          `⌨ The cell asks for input${event.password ? ' (a password)' : ''}: ${event.prompt || '(no prompt)'}`,
        );
        return;
      case 'kernel.result':
        if (event.return_value) this.writeLines(`cell:${event.execution_id}`, richLines(event.return_value));
        if (event.error) this.note(`✗ ${event.error.summary}`);
        if (event.limit) {
          const what = event.limit.kind === 'input_idle' ? 'waited for input' : 'ran';
          const action =
            event.limit.action === 'interrupted' ? 'interrupted' : 'killed, and the kernel restarted';
          this.note(`  The cell ${what} longer than its limit of ${event.limit.limit_ms} ms: ${action}.`);
        }
        if (event.state_lost) this.note(`  Kernel state was lost: ${event.state_lost}.`);
        return;
      case 'kernel.error':
        this.note(`✗ Kernel "${event.kernel}": ${event.message}`);
        return;
      case 'kernel.died':
        this.note(`✗ ${event.message}`);
        return;
    }
  }

  /** Text on stdout; a different writer than the last starts on a fresh line. */
  private write(source: string, text: string): void {
    if (text.length === 0) return;
    if (this.midLine && this.source !== source) this.out.write('\n');
    this.out.write(text);
    this.midLine = !text.endsWith('\n');
    this.source = source;
  }

  private writeLines(source: string, lines: string[]): void {
    for (const line of lines) {
      this.breakOut();
      this.write(source, `${line}\n`);
    }
  }

  private breakOut(): void {
    if (this.midLine) {
      this.out.write('\n');
      this.midLine = false;
    }
  }

  private note(text: string): void {
    this.breakOut();
    if (this.errMidLine) {
      this.err.write('\n');
      this.errMidLine = false;
    }
    this.err.write(`${text}\n`);
  }
}

/**
 * A question as terminal lines. An approval shows the call itself, whole, from its input: the question's
 * own text shortens long code and names only a file's path.
 */
function questionLines(question: Question, workspace: string | null): string[] {
  if (question.kind === 'approval' && question.tool) {
    const lines = approvalLines(question.tool, workspace);
    if (!question.permission) return lines;
    // Why it asks, right under the question line (the warning and the call follow).
    return [lines[0]!, `  why: ${revealHidden(question.permission.reason).text}`, ...lines.slice(1)];
  }
  const options = question.options ? ` [${question.options.join(' / ')}]` : '';
  const shown = revealHidden(
    question.elicitation
      ? `MCP server "${question.elicitation.server_name}" asks: ${question.question}`
      : `${question.question}${options}`,
  );
  return [`? ${shown.text}`, ...(shown.hidden > 0 ? [`  ${hiddenWarning(shown.hidden)}`] : [])];
}

/** A rich output as terminal lines: files as one-line placeholders, else the plain text. */
function richLines(output: KernelRichOutput): string[] {
  if (output.artifacts.length > 0) return output.artifacts.map(artifactLine);
  return output.text === null ? [] : [output.text];
}

function artifactLine(artifact: KernelArtifact): string {
  const kind = artifact.mime.startsWith('image/') ? 'image' : 'output';
  return `[${kind}: ${artifact.mime}, ${artifact.bytes} bytes, artifact ${artifact.id}]`;
}

function summarize(input: unknown): string {
  const text =
    typeof input === 'object' && input !== null && 'command' in input
      ? String(input.command)
      : typeof input === 'object' && input !== null && 'code' in input
        ? String(input.code).replace(/\n/g, ' ⏎ ')
        : JSON.stringify(input);
  // One line of what runs; an approval shows it whole.
  const line = revealHidden(text).text;
  return line.length > 120 ? `${line.slice(0, 117)}…` : line;
}

/** An MCP server's progress in a line: starting, ready with its tools, or what went wrong. */
