// Cairn's client as a user's Node script uses it: `import { connect } from 'cairn/client'` through the
// package's exports (the built ES module), `ws` as the WebSocket, against a real sidecar.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CairnEvent, KernelInfo, SessionExport } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import { ensureClientBuilt, REPO_ROOT } from './built-client';

const SCRIPT = path.join(REPO_ROOT, 'sidecar', 'test', 'client', 'fixtures', 'connect-script.mjs');

type Attempt<T> = { ok: T } | { code: string; status: number };

interface ScriptOutput {
  turn: { id: string; request_id: string };
  types: CairnEvent['type'][];
  seqs: number[];
  reply: string;
  again: { id: string; seqs: number[] };
  asked: { types: CairnEvent['type'][]; question: string; reply: string; status: string };
  sessions: string[];
  kernels: KernelInfo[];
  search: Attempt<{ hits: { turn_id: string }[] }>;
  markdown: Attempt<string>;
  json: Attempt<SessionExport>;
  wrongToken: Attempt<unknown>;
}

let h: Harness;
beforeAll(async () => {
  ensureClientBuilt();
  h = await startHarness();
});
afterAll(() => h?.close());

describe('a Node script using cairn/client', () => {
  it('connects, runs a turn by request_id to its end, answers a question, lists, searches and exports', async () => {
    h.model.enqueue(
      { content: [{ type: 'text', text: 'Hello from the model.' }] },
      {
        content: [
          {
            type: 'tool_use',
            name: 'AskUserQuestion',
            input: { question: 'Which colour?', options: ['red', 'blue'] },
          },
        ],
      },
      { content: [{ type: 'text', text: 'Blue it is.' }] },
    );
    const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        CAIRN_URL: h.server.url,
        CAIRN_TOKEN: h.server.token,
        PROJECT_DIR: h.projectDir,
      },
    });
    const out = JSON.parse(stdout) as ScriptOutput;

    // The turn's events, as the journal holds them: from turn.started to turn.completed, none twice.
    expect(out.turn.request_id).toBe('script-request-1');
    const journal = (await h.events(out.sessions[0]!)).filter((e) => e.turn_id === out.turn.id);
    expect(out.seqs).toEqual(journal.map((e) => e.seq));
    expect(out.types[0]).toBe('turn.started');
    expect(out.types.at(-1)).toBe('turn.completed');
    expect(out.reply).toBe('Hello from the model.');
    // The same request_id again: the same turn, not a second one (the model was asked once for it).
    expect(out.again).toEqual({ id: out.turn.id, seqs: out.seqs });

    // The question was answered from the script and the model got the answer.
    expect(out.asked.question).toBe('Which colour?');
    expect(out.asked.types).toContain('question.answered');
    expect(out.asked.types.at(-1)).toBe('turn.completed');
    expect(out.asked.reply).toBe('Blue it is.');
    expect(out.asked.status).toBe('completed');
    expect(JSON.stringify(h.model.requests[2]?.body.messages.at(-1))).toContain('blue');
    expect(h.model.requests).toHaveLength(3);

    expect(out.sessions).toHaveLength(1);
    expect(out.kernels).toEqual([]);
    // Search and export are other parts of issue 17: their answers if the routes exist, else not_found.
    if ('ok' in out.search) expect(out.search.ok.hits.map((hit) => hit.turn_id)).toContain(out.turn.id);
    else expect(out.search).toEqual({ code: 'not_found', status: 404 });
    if ('ok' in out.markdown) expect(out.markdown.ok).toContain('Hello from the model.');
    else expect(out.markdown).toEqual({ code: 'not_found', status: 404 });
    if ('ok' in out.json) expect(out.json.ok.format).toBe('cairn.session');
    else expect(out.json).toEqual({ code: 'not_found', status: 404 });

    expect(out.wrongToken).toEqual({ code: 'unauthorized', status: 401 });
  });
});
