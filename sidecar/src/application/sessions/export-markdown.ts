import type { CairnEvent, ContentBlock, Session, TurnWithDetails } from '../../protocol';

/** The most of one tool result or kernel output shown; the JSON export keeps everything. */
export const MARKDOWN_CLIP_CHARS = 4000;

export interface MarkdownInput {
  session: Session;
  turns: TurnWithDetails[];
  /** Tool call id → its full result. */
  results: Map<string, string>;
  /** The session's kernel.* events, in order. */
  kernelEvents: CairnEvent[];
}

/** A session as a readable document: each turn's prompt, replies, tool calls, kernel cells and usage. */
export function renderMarkdown({ session, turns, results, kernelEvents }: MarkdownInput): string {
  const out: string[] = [`# ${session.title}`, ''];
  out.push(
    `- Session: \`${session.id}\``,
    `- Created: ${session.created_at}`,
    `- Updated: ${session.updated_at}`,
  );
  if (session.branched_from) {
    out.push(
      `- Branched from: session \`${session.branched_from.session_id}\`, turn \`${session.branched_from.turn_id}\``,
    );
  }
  out.push('');
  const cells = cellsByTurn(kernelEvents);
  for (const turn of turns) {
    out.push(`## Turn ${turn.ordinal}`, '', `*${turn.created_at}* · ${turn.status}`, '');
    out.push('### Prompt', '', quote(turn.prompt), '');
    for (const message of turn.messages) {
      if (message.role !== 'assistant' || message.internal) continue;
      const text = message.content
        .filter(isText)
        .map((b) => String(b.text))
        .join('\n\n')
        .trim();
      if (text) out.push('### Assistant', '', closeFences(text), '');
    }
    for (const call of turn.tool_calls) {
      out.push(
        `### Tool call: ${call.name} (${call.status})`,
        '',
        '**Input**',
        '',
        fenced(JSON.stringify(call.input, null, 2), 'json'),
      );
      const result = results.get(call.id) ?? call.preview;
      if (result !== null && result !== undefined) out.push('**Result**', '', clipped(result));
    }
    for (const cell of cells.get(turn.id) ?? []) out.push(...renderCell(cell));
    for (const q of turn.questions) {
      const heading =
        q.kind === 'approval'
          ? 'Approval'
          : q.elicitation
            ? `Form of MCP server ${q.elicitation.server_name}`
            : 'Question';
      out.push(`### ${heading}`, '', quote(q.question), '');
      out.push(`Answer: ${q.answer === null ? `(${q.status})` : closeFences(q.answer)}`, '');
    }
    if (turn.answer) out.push('### Final answer', '', closeFences(turn.answer), '');
    if (turn.error) out.push(`**Error** (${turn.error.code}): ${closeFences(turn.error.message)}`, '');
    if (turn.usage) {
      const u = turn.usage;
      const cost = turn.cost === null ? '' : `, about $${turn.cost.toFixed(4)}`;
      out.push(
        `*Usage: ${u.input_tokens} input, ${u.output_tokens} output, ${u.cache_read_input_tokens} cache read, ${u.cache_creation_input_tokens} cache write tokens${cost}*`,
        '',
      );
    }
  }
  const outside = cells.get(null) ?? [];
  if (outside.length > 0) {
    out.push('## Kernel cells run by the user', '');
    for (const cell of outside) out.push(...renderCell(cell));
  }
  return `${out.join('\n').trimEnd()}\n`;
}

interface Cell {
  kernel: string;
  code: string;
  parts: string[];
}

/** Kernel executions grouped by their turn (null: the user's own cells), each with its output in order. */
function cellsByTurn(events: CairnEvent[]): Map<string | null, Cell[]> {
  const byTurn = new Map<string | null, Cell[]>();
  const byExecution = new Map<string, Cell>();
  for (const e of events) {
    const event = e as CairnEvent & Record<string, unknown>;
    const execution = typeof event.execution_id === 'string' ? event.execution_id : null;
    if (event.type === 'kernel.execution_started' && execution) {
      const cell: Cell = { kernel: String(event.kernel), code: String(event.code), parts: [] };
      byExecution.set(execution, cell);
      const list = byTurn.get(event.turn_id) ?? [];
      list.push(cell);
      byTurn.set(event.turn_id, list);
      continue;
    }
    const cell = execution ? byExecution.get(execution) : undefined;
    if (!cell) continue;
    if (event.type === 'kernel.stream')
      cell.parts.push(`**${String(event.stream)}**`, '', clipped(String(event.text)));
    else if (event.type === 'kernel.display') cell.parts.push(...rich(event as unknown as RichEvent));
    else if (event.type === 'kernel.result') {
      const result = event as unknown as {
        return_value: RichEvent | null;
        error: { summary: string; traceback: string[] } | null;
      };
      if (result.return_value) cell.parts.push('**Result**', '', ...rich(result.return_value));
      if (result.error)
        cell.parts.push(
          '**Error**',
          '',
          clipped([result.error.summary, ...result.error.traceback].join('\n')),
        );
    } else if (event.type === 'kernel.error' || event.type === 'kernel.died') {
      cell.parts.push(`**${event.type}**: ${String(event.message)}`, '');
    }
  }
  return byTurn;
}

interface RichEvent {
  text: string | null;
  artifacts?: { id: string; mime: string }[];
}

/** Plain text inline; images and other saved outputs by name, as the JSON export's artifacts hold them. */
function rich(output: RichEvent): string[] {
  const parts: string[] = [];
  if (output.text) parts.push(clipped(output.text));
  // Imports are checked; still, a display without artifacts must not break every export of the session.
  for (const a of output.artifacts ?? []) {
    const mime = safeMime(a.mime);
    const name = `artifacts/${a.id}${extension(mime)}`;
    parts.push(mime.startsWith('image/') ? `![${a.id}](${name})` : `[${a.id} (${mime})](${name})`, '');
  }
  return parts;
}

function renderCell(cell: Cell): string[] {
  return [`### Kernel cell (${cell.kernel})`, '', fenced(cell.code, 'python'), ...cell.parts];
}

function extension(mime: string): string {
  const sub = mime.split('/')[1] ?? 'bin';
  return `.${sub === 'svg+xml' ? 'svg' : sub === 'jpeg' ? 'jpg' : sub}`;
}

/** A mime type as link text and file extension: letters, digits and . + - only (it may come from an import). */
function safeMime(mime: string): string {
  const [type = '', sub = ''] = mime.toLowerCase().split('/');
  const clean = (part: string) => part.replace(/[^a-z0-9.+-]/g, '');
  return `${clean(type) || 'application'}/${clean(sub) || 'octet-stream'}`;
}

/**
 * Raw text (a model's reply, an answer, an error) with any code fence it leaves open closed after it: a reply
 * cut off mid-block must not turn the rest of the document into code.
 */
function closeFences(text: string): string {
  let open: { char: string; length: number } | null = null;
  for (const line of text.split('\n')) {
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!fence) continue;
    const [char, length, rest] = [fence[1]![0]!, fence[1]!.length, fence[2]!];
    if (!open) {
      // A backtick fence's info string holds no backtick (else it is inline code, not a fence).
      if (char === '~' || !rest.includes('`')) open = { char, length };
    } else if (char === open.char && length >= open.length && rest.trim() === '') open = null;
  }
  return open ? `${text}\n${open.char.repeat(open.length)}` : text;
}

const isText = (b: ContentBlock): boolean => b.type === 'text' && typeof b.text === 'string';

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/** A code block whose fence is longer than any run of backticks inside. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}\n`;
}

function clipped(text: string): string {
  if (text.length <= MARKDOWN_CLIP_CHARS) return fenced(text);
  const shown = text.slice(0, MARKDOWN_CLIP_CHARS);
  return `${fenced(shown)}\n*[clipped: the first ${MARKDOWN_CLIP_CHARS} of ${text.length} characters; the JSON export holds it all]*\n`;
}
