import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SearchService } from '../../src/application/search/search-service';
import { renderMarkdown } from '../../src/application/sessions/export-markdown';
import { SessionBranching } from '../../src/application/sessions/session-branching';
import { SessionExporter } from '../../src/application/sessions/session-export';
import { SessionImporter } from '../../src/application/sessions/session-import';
import { ToolCallService } from '../../src/application/turns/tool-call-service';
import { type Session, SessionExport } from '../../src/protocol';
import { Store } from '../../src/store/store';
import { ToolCallFiles } from '../../src/tools/tool-call-files';
import { allFiles } from '../support/data-files';
import { PNG_BYTES, richTurn } from '../support/rich-session';

let root: string;
let dir: string;
let store: Store;
let files: ToolCallFiles;
let exporter: SessionExporter;
let importer: SessionImporter;
let parent: Session;

/** An export without what differs by design: ids, times, the data folder's paths. */
function comparable(data: SessionExport) {
  return {
    title: data.session.title,
    turns: data.turns.map((t) => ({
      ordinal: t.ordinal,
      prompt: t.prompt,
      status: t.status,
      answer: t.answer,
      messages: t.messages.map((m) => [
        m.role,
        m.internal,
        JSON.stringify(m.content)
          .replace(/"[^"]*tool-calls[^"]*"/g, '<path>')
          .replace(/ \(in full: [^)]*\)/g, ''),
      ]),
      tool_calls: t.tool_calls.map((c) => [c.name, c.input, c.status, c.preview, data.tool_results[c.id]]),
      questions: t.questions.map((q) => [q.question, q.options, q.status, q.answer]),
    })),
    artifacts: data.artifacts.map((a) => [a.mime, a.data_base64]),
    events: data.events
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).type),
  };
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-transfer-'));
  dir = path.join(root, 'data');
  store = Store.open(dir);
  files = new ToolCallFiles(dir);
  exporter = new SessionExporter({ store, files });
  importer = new SessionImporter({ store, files, conversationOnly: false });
  const project = store.projects.upsertByPath(dir);
  parent = store.sessions.update(store.sessions.create({ projectId: project.id }).id, {
    title: 'Plots & data',
  })!;
  for (const i of [1, 2]) richTurn(store, files, parent.id, i);
});

afterEach(() => {
  store.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('exporting and importing a session', () => {
  it('brings a JSON export back as a new session that exports the same', () => {
    const exported = SessionExport.parse(JSON.parse(JSON.stringify(exporter.json(parent.id))));
    expect(exported.artifacts.map((a) => Buffer.from(a.data_base64, 'base64'))).toEqual([
      PNG_BYTES,
      PNG_BYTES,
    ]);
    const imported = importer.importSession(exported, parent.project_id);
    expect(imported.id).not.toBe(parent.id);
    expect(imported.project_id).toBe(parent.project_id);
    const again = exporter.json(imported.id);
    expect(comparable(again)).toEqual(comparable(exported));

    // Every id is new, and what points at one points at the new one.
    const oldIds = [
      parent.id,
      ...exported.turns.flatMap((t) => [
        t.id,
        ...t.tool_calls.map((c) => c.id),
        ...t.questions.map((q) => q.id),
      ]),
    ];
    const text = JSON.stringify(again);
    for (const id of [...oldIds, ...exported.artifacts.map((a) => a.id)]) expect(text).not.toContain(id);
    const calls = again.turns.flatMap((t) => t.tool_calls);
    const toolCalls = new ToolCallService({ store, files });
    for (const call of calls) {
      expect(call.result_file!.startsWith(files.sessionDir(imported.id) + path.sep)).toBe(true);
      expect(toolCalls.get(call.id).result).toBe(
        exported.tool_results[exported.turns[call.turn_id === again.turns[0]!.id ? 0 : 1]!.tool_calls[0]!.id],
      );
    }
    const events = store.events.after(imported.id, 0);
    const callIds = new Set(calls.map((c) => c.id));
    for (const e of events) {
      if (e.type === 'tool.started' || e.type === 'kernel.execution_started')
        expect(callIds.has(e.tool_call_id!)).toBe(true);
      if (e.type === 'kernel.display') {
        for (const a of e.artifacts)
          expect(fs.readFileSync(store.artifacts.get(a.id)!.path)).toEqual(PNG_BYTES);
      }
      if (e.type === 'message.completed')
        expect(store.messages.byIds(imported.id, [e.message.id])).toHaveLength(1);
    }
    // The messages the model would see name the results where they are now.
    const toolResult = again.turns[0]!.messages[2]!.content[0] as unknown as { content: string };
    expect(toolResult.content).toContain(calls[0]!.result_file);

    // Found by search like a session written turn by turn: messages, tool calls, kernel cells.
    const found = (q: string) =>
      new SearchService(store)
        .search({ q, limit: 100, session_id: imported.id })
        .hits.map((h) => h.kind)
        .sort();
    expect(found('prompt')).toEqual(['message', 'message']);
    expect(found('echo')).toEqual(['tool_call', 'tool_call']);
    expect(found('print')).toEqual(['kernel_cell', 'kernel_cell']);
  });

  it('imports a running turn as interrupted and writes no file where the export says', () => {
    const running = store.turns.create(parent.id, 'req-run', 'still going');
    store.toolCalls.create({
      sessionId: parent.id,
      turnId: running.id,
      toolUseId: 'toolu_r',
      name: 'Bash',
      input: {},
      status: 'running',
    });
    const data = exporter.json(parent.id);
    // A crafted export: ids that are paths, a result keyed by a path.
    data.artifacts[0]!.id = '../../../escaped';
    data.turns[0]!.tool_calls[0]!.id = '../../outside';
    data.tool_results['../../outside'] = 'crafted';
    data.session.approval = 'auto';
    const imported = importer.importSession(SessionExport.parse(data), null);
    expect(fs.readdirSync(root)).toEqual(['data']);
    expect(allFiles(dir).some((f) => f.includes('escaped') || f.includes('outside'))).toBe(false);
    expect(allFiles(files.sessionDir(imported.id))).toHaveLength(4);
    expect(imported.project_id).toBeNull();
    // The file's approval mode is not trusted: an import asks until the user says otherwise.
    expect(imported.approval).toBe('ask');
    const turns = store.turns.page(imported.id, 10).turns;
    expect(turns.map((t) => t.status)).toEqual(['completed', 'completed', 'interrupted']);
    const calls = [...store.toolCalls.forTurns([turns[2]!.id]).values()].flat();
    expect(calls.map((c) => c.status)).toEqual(['interrupted']);
    expect(store.contextVersions.head(imported.id)).toMatchObject({ number: 1, first_message_id: null });
  });

  it('drops journal lines that are not events, so what reads the journal later does not trip', () => {
    const data = exporter.json(parent.id);
    const execution = `exe_${parent.id}_1`;
    const broken = [
      { type: 'kernel.display', execution_id: execution, text: 'x' },
      { type: 'no.such.event', turn_id: null },
    ];
    data.events += broken.map((e) => `${JSON.stringify(e)}\n`).join('');
    const imported = importer.importSession(SessionExport.parse(data), parent.project_id);
    const events = store.events.after(imported.id, 0);
    expect(events.map((e) => e.type)).toEqual(store.events.after(parent.id, 0).map((e) => e.type));
    expect(exporter.markdown(imported.id).text).toContain('print(1)');
    // Markdown is written from any journal: a display without artifacts renders its text.
    const base = { seq: 1, session_id: parent.id, turn_id: null, time: '', kernel: 'default' };
    const kernelEvents = [
      {
        ...base,
        type: 'kernel.execution_started',
        execution_id: execution,
        code: 'plot()',
        tool_call_id: null,
      },
      { ...base, ...broken[0] },
    ] as never[];
    const text = renderMarkdown({ session: parent, turns: [], results: new Map(), kernelEvents });
    expect(text).toContain('plot()');
    expect(text).toContain('```\nx\n```');
  });

  it("moves paths from a Windows exporter's data folder into this one", () => {
    const data = exporter.json(parent.id);
    // The same export as Windows writes it: C:\ paths with backslashes in every string.
    const windows = (text: string) =>
      text
        .split(files.sessionDir(parent.id))
        .join(`C:\\Users\\alice\\AppData\\Cairn\\sessions\\${parent.id}`);
    const fromWindows = JSON.parse(JSON.stringify(data), (_, v) =>
      typeof v === 'string'
        ? windows(v).replace(/(C:\\[^\s)]*)/g, (p: string) => p.split('/').join('\\'))
        : v,
    );
    expect(JSON.stringify(fromWindows)).toContain('\\\\tool-calls\\\\');
    const imported = importer.importSession(SessionExport.parse(fromWindows), parent.project_id);
    const [turn] = exporter.json(imported.id).turns;
    const toolResult = turn!.messages[2]!.content[0] as unknown as { content: string };
    expect(toolResult.content).toContain(`(in full: ${turn!.tool_calls[0]!.result_file})`);
  });

  it('imports an export of a branch with its messages naming the results where they are', () => {
    const branch = new SessionBranching({ store, files }).branch(
      parent.id,
      store.turns.page(parent.id, 10).turns[1]!.id,
    );
    const imported = importer.importSession(exporter.json(branch.id), parent.project_id);
    const named = exporter
      .json(imported.id)
      .turns.flatMap((t) => t.messages.map((m) => /in full: ([^)]+)\)/.exec(JSON.stringify(m.content))?.[1]))
      .filter((p) => p !== undefined);
    expect(named).toHaveLength(2);
    for (const file of named) expect(fs.readFileSync(file, 'utf8')).toMatch(/^result \d/);
  });

  it('refuses an unknown project', () => {
    const data = exporter.json(parent.id);
    expect(() => importer.importSession(data, 'prj_missing')).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
  });

  it('writes a readable Markdown document', () => {
    const { filename, text } = exporter.markdown(parent.id);
    expect(filename).toBe('Plots-data.md');
    expect(text).toContain('# Plots & data');
    expect(text).toContain('> prompt 1');
    expect(text).toContain('answer 2');
    expect(text).toContain('### Tool call: Bash (completed)');
    expect(text).toContain('"command": "echo 2"');
    expect(text).toContain('result 2\nresult 2');
    expect(text).toContain('```python\nprint(2)\n```');
    expect(text).toContain('**stdout**');
    expect(text).toMatch(/!\[art_[^\]]+\]\(artifacts\/art_[^)]+\.png\)/);
    expect(text).toContain('Which one?');
    expect(text).toContain('Answer: a');
  });

  it('keeps the Markdown whole after a reply with an open code fence or a crafted artifact type', () => {
    const [first] = store.turns.page(parent.id, 10).turns;
    store.messages.append({
      sessionId: parent.id,
      turnId: first!.id,
      role: 'assistant',
      content: [{ type: 'text', text: 'cut off:\n```python\nprint("cut")' }],
    });
    store.events.append(parent.id, {
      type: 'kernel.display',
      turn_id: first!.id,
      kernel: 'default',
      execution_id: `exe_${parent.id}_1`,
      text: null,
      artifacts: [{ id: 'art_crafted', mime: 'text/x](javascript:alert(1))', bytes: 1 }],
    } as never);
    const { text } = exporter.markdown(parent.id);
    // The open block is closed right after the reply, so the next heading is a heading.
    expect(text).toContain('print("cut")\n```\n');
    expect(text).toContain('[art_crafted (text/xjavascriptalert1)](artifacts/art_crafted.xjavascriptalert1)');
  });
});
