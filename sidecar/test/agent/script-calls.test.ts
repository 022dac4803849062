import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CairnEvent, Question, ToolCall, TurnWithDetails } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import { scriptRequest } from '../support/script-request';
import { lastToolResults, receiptOf } from '../support/tool-results';

/** Scripts the agent runs call Cairn's tools through `cairn tool`, with the same dispatcher and approvals. */
describe('scripts that call tools', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  /** Every tool call of the session, as the API lists them under its turns. */
  const callsOf = async (sessionId: string): Promise<ToolCall[]> => {
    const page = await h.api<{ turns: TurnWithDetails[] }>(
      'GET',
      `/api/sessions/${sessionId}/turns?limit=50`,
    );
    return page.body.turns.flatMap((t) => t.tool_calls);
  };

  it('a shell script writes a file through Write; the call is a child of the Bash call', async () => {
    const { sessionId } = await h.newSession();
    const command = `cairn tool call Write --json '{"path": "from-script.txt", "content": "written by a script"}'`;
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'script');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(fs.readFileSync(path.join(h.projectDir, 'from-script.txt'), 'utf8')).toBe('written by a script');
    const printed = lastToolResults(h.model.requests.at(-1)!)[0]!.content;
    const reply = JSON.parse(printed.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(reply).toMatchObject({ status: 'completed', is_error: false });
    expect(Object.keys(reply).sort()).toEqual([
      'call_id',
      'content',
      'is_error',
      'meta',
      'result_dir',
      'status',
    ]);

    const calls = await callsOf(sessionId);
    const bash = calls.find((c) => c.name === 'Bash')!;
    const write = calls.find((c) => c.name === 'Write')!;
    expect(write.parent_tool_call_id).toBe(bash.id);
    expect(write.id).toBe(reply.call_id);
    const started = (await h.events(sessionId)).find(
      (e): e is Extract<CairnEvent, { type: 'tool.started' }> =>
        e.type === 'tool.started' && e.name === 'Write',
    );
    expect(started?.parent_tool_call_id).toBe(bash.id);
    expect(fs.readFileSync(path.join(reply.result_dir as string, 'result.txt'), 'utf8')).toContain(
      'from-script.txt',
    );
  });

  it('in ask mode the user is asked, naming the script call; a denial reaches the script as an error', async () => {
    const { sessionId } = await h.newSession({ approval: 'ask' });
    // The arguments from standard input this time (`--json -`).
    const command = `echo '{"path": "denied.txt", "content": "x"}' | cairn tool call Write --json -`;
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'script in ask mode');
    const answer = async (match: (q: Question) => boolean, value: string) => {
      const event = (await h.waitForEvent(
        sessionId,
        (e) => e.type === 'question.required' && match(e.question),
      )) as Extract<CairnEvent, { type: 'question.required' }>;
      await h.api('POST', `/api/questions/${event.question.id}/answer`, { answer: value });
      return event.question;
    };
    const bashQuestion = await answer((q) => q.tool?.name === 'Bash', 'allow');
    const writeQuestion = await answer((q) => q.tool?.name === 'Write', 'deny');
    expect(writeQuestion.question).toContain(`from a script of call ${bashQuestion.tool_call_id}`);
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(fs.existsSync(path.join(h.projectDir, 'denied.txt'))).toBe(false);
    const printed = lastToolResults(h.model.requests.at(-1)!)[0]!.content;
    const reply = JSON.parse(printed.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(reply).toMatchObject({ status: 'denied', is_error: true });
    expect((await callsOf(sessionId)).find((c) => c.name === 'Write')?.status).toBe('denied');
  });

  it('a Python script writes through Write with cairn_tools, asked for in ask mode, and hears a denial', async () => {
    const script = [
      'import cairn_tools, json, sys',
      'reply = cairn_tools.call("Write", {"path": sys.argv[1], "content": "from python"})',
      'print(json.dumps({"status": reply.status, "is_error": reply.is_error, "call_id": reply.call_id}))',
    ].join('\n');
    fs.writeFileSync(path.join(h.projectDir, 'write_it.py'), script);
    const run = async (approval: 'auto' | 'ask', target: string, answer: string) => {
      const { sessionId } = await h.newSession({ approval });
      h.model.enqueue(
        {
          content: [{ type: 'tool_use', name: 'Bash', input: { command: `python3 write_it.py ${target}` } }],
        },
        { content: [{ type: 'text', text: 'done' }] },
      );
      const asked: Question[] = [];
      const off = h.server.core.store.events.subscribe((e) => {
        if (e.session_id !== sessionId || e.type !== 'question.required') return;
        asked.push(e.question);
        const value = e.question.tool?.name === 'Write' ? answer : 'allow';
        void h.api('POST', `/api/questions/${e.question.id}/answer`, { answer: value });
      });
      try {
        await h.waitForTurnEnd((await h.startTurn(sessionId, 'python')).id);
      } finally {
        off();
      }
      const printed = lastToolResults(h.model.requests.at(-1)!)[0]!.content;
      return { asked, reply: JSON.parse(printed.trim().split('\n').at(-1)!) as Record<string, unknown> };
    };
    const auto = await run('auto', 'auto.txt', 'allow');
    expect(auto.asked).toEqual([]);
    expect(auto.reply).toMatchObject({ status: 'completed', is_error: false });
    expect(fs.readFileSync(path.join(h.projectDir, 'auto.txt'), 'utf8')).toBe('from python');

    const denied = await run('ask', 'denied-py.txt', 'deny');
    expect(denied.asked.map((q) => q.tool?.name)).toEqual(['Bash', 'Write']);
    expect(denied.asked[1]!.question).toContain(`from a script of call ${denied.asked[0]!.tool_call_id}`);
    expect(denied.reply).toMatchObject({ status: 'denied', is_error: true });
    expect(fs.existsSync(path.join(h.projectDir, 'denied-py.txt'))).toBe(false);
  });

  it('gives scripts its private Unix socket, and reaches the runtime over its loopback port too', async () => {
    const { sessionId } = await h.newSession();
    const { tcp, unix } = await h.server.core.services.toolRuntime.scriptEndpoints();
    h.model.enqueue(
      {
        content: [
          {
            type: 'tool_use',
            name: 'Bash',
            input: {
              command: `echo "$CAIRN_TOOL_ENDPOINT"; CAIRN_TOOL_ENDPOINT='${tcp}' cairn tool call Glob --json '{"pattern": "*.none"}'`,
            },
          },
        ],
      },
      { content: [{ type: 'text', text: 'done' }] },
    );
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'tcp')).id);
    const [given, printed] = lastToolResults(h.model.requests.at(-1)!)[0]!.content.trim().split('\n');
    expect(given).toBe(process.platform === 'win32' ? tcp : unix);
    expect(JSON.parse(printed!)).toMatchObject({ status: 'completed', is_error: false });
  });

  it('refuses a token once its call has ended', async () => {
    const { sessionId } = await h.newSession();
    const stolen = path.join(h.projectDir, 'stolen.env');
    h.model.enqueue(
      {
        content: [
          {
            type: 'tool_use',
            name: 'Bash',
            input: {
              command: `echo "$CAIRN_TOOL_ENDPOINT $CAIRN_TOOL_TOKEN" > ${stolen}; cairn tool status x`,
            },
          },
        ],
      },
      { content: [{ type: 'text', text: 'done' }] },
    );
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'leak')).id);
    // While the call ran, the token worked (an unknown call is a reply, not a refusal).
    expect(lastToolResults(h.model.requests.at(-1)!)[0]!.content).toContain('"is_error":true');
    const [endpoint, token] = fs.readFileSync(stolen, 'utf8').trim().split(' ');
    const { tcp } = await h.server.core.services.toolRuntime.scriptEndpoints();
    expect(tcp).not.toBe(h.server.url);
    for (const where of [endpoint!, tcp]) {
      const late = await scriptRequest(where, token!, 'call', {
        name: 'Write',
        arguments: { path: 'late.txt', content: 'x' },
      });
      expect(late.status).toBe(401);
    }
    expect(fs.existsSync(path.join(h.projectDir, 'late.txt'))).toBe(false);
    // And the API's token is no script token.
    expect((await scriptRequest(tcp, h.server.token, 'status', { call_id: 'x' })).status).toBe(401);
  });

  it('a script may cancel the very call that runs it through ToolControl, without waiting on itself', async () => {
    const { sessionId } = await h.newSession();
    const idFile = path.join(h.projectDir, 'own.id');
    const command =
      `while [ ! -s ${idFile} ]; do sleep 0.05; done; ` +
      `cairn tool call ToolControl --json "{\\"action\\": \\"cancel\\", \\"call_id\\": \\"$(cat ${idFile})\\"}"; sleep 300`;
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command, is_wait: false } }] },
      { content: [{ type: 'text', text: 'started' }] },
    );
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'self-cancel')).id);
    const { call_id: callId } = receiptOf(h.model.requests.at(-1)!);
    fs.writeFileSync(idFile, callId);
    await h.waitForEvent(sessionId, (e) => e.type === 'tool.finished' && e.tool_call_id === callId);
    const calls = await callsOf(sessionId);
    expect(calls.find((c) => c.id === callId)?.status).toBe('cancelled');
    expect(calls.find((c) => c.name === 'ToolControl')).toMatchObject({ parent_tool_call_id: callId });
    await waitUntil(async () => (await callsOf(sessionId)).every((c) => c.status !== 'running'));
  });

  it('cancelling a background Bash stops its tree, revokes its token and cancels the calls its script started', async () => {
    const { sessionId } = await h.newSession();
    const stolen = path.join(h.projectDir, 'parent.env');
    // The script starts a background child and then waits on a second, waited child.
    const command = [
      `echo "$CAIRN_TOOL_ENDPOINT $CAIRN_TOOL_TOKEN" > ${stolen}`,
      `cairn tool call Bash --json '{"command": "sleep 301"}' --no-wait`,
      `cairn tool call Bash --json '{"command": "sleep 302"}'`,
    ].join('; ');
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command, is_wait: false } }] },
      { content: [{ type: 'text', text: 'started' }] },
    );
    const turn = await h.startTurn(sessionId, 'start');
    await h.waitForTurnEnd(turn.id);
    const { call_id: parentId } = receiptOf(h.model.requests.at(-1)!);
    // Both children run before the cancel.
    await h.waitForEvent(
      sessionId,
      (e) => e.type === 'tool.started' && JSON.stringify(e.input).includes('sleep 302'),
    );
    const children = async () => (await callsOf(sessionId)).filter((c) => c.parent_tool_call_id === parentId);
    await waitUntil(async () => (await children()).length === 2);
    const pids = await waitForSleeps(['sleep 301', 'sleep 302']);

    const cancelled = await h.api<ToolCall>('POST', `/api/tool-calls/${parentId}/cancel`);
    expect(cancelled.body.status).toBe('cancelled');
    expect((await children()).map((c) => c.status)).toEqual(['cancelled', 'cancelled']);
    for (const pid of pids) expect(alive(pid)).toBe(false);
    const [endpoint, token] = fs.readFileSync(stolen, 'utf8').trim().split(' ');
    expect((await scriptRequest(endpoint!, token!, 'status', { call_id: parentId })).status).toBe(401);
  });
});

async function waitUntil(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not met');
}

/** The pids of processes whose command line is each of `commands`, once they all run. */
async function waitForSleeps(commands: string[]): Promise<number[]> {
  const find = () =>
    commands.map((command) => {
      for (const entry of fs.readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        try {
          const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
          if (cmdline === command) return Number(entry);
        } catch {
          // gone meanwhile
        }
      }
      return null;
    });
  await waitUntil(() => find().every((pid) => pid !== null));
  return find() as number[];
}

function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}
