import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, waitFor } from '../tools/tool-context';
import { closeTestSessions, FLAVOURS, mergeRuns, openTestSession, STDLIB } from './kernel-support';

/**
 * What local kernels give cells for Cairn's tool runtime: the environment `scriptEnv` gives from their
 * start (the warm spare's too), the token of an agent's cell for that cell alone; and for a tool call, no
 * active-time limit when asked, and the cell's output as it streams. (A cell calling tools for real through
 * `cairn_tools` and the script endpoint: test/application/execute-code-tool.test.ts.)
 */

afterEach(closeTestSessions);

const AGENT_CELL = `
import os, subprocess, sys
child = subprocess.run([sys.executable, "-c", "import os; print(os.environ.get('CAIRN_TOOL_TOKEN'))"],
                       capture_output=True, text=True).stdout.strip()
[os.environ.get("CAIRN_TOOL_TOKEN"), child]
`;

describe.each(FLAVOURS)('a cell and the tool runtime, with the $label', (flavour) => {
  it("has its token only while it runs, a child process too; the user's cells have none", async () => {
    const t = await openTestSession(flavour);
    const kernel = t.session.kernel();

    const agent = await kernel.execute(AGENT_CELL, { toolToken: 'tok_cell_1' });
    expect(agent.error).toBeNull();
    expect(agent.returnValue?.text).toBe("['tok_cell_1', 'tok_cell_1']");
    const user = await kernel.execute(AGENT_CELL);
    expect(user.returnValue?.text).toBe("[None, 'None']");

    // A cell that fails gives its token back too.
    const failing = await kernel.execute('seen = os.environ["CAIRN_TOOL_TOKEN"]\n1/0', {
      toolToken: 'tok_cell_2',
    });
    expect(failing.error?.type).toBe('ZeroDivisionError');
    expect((await kernel.execute('[seen, os.environ.get("CAIRN_TOOL_TOKEN")]')).returnValue?.text).toBe(
      "['tok_cell_2', None]",
    );

    // What was there before the agent's cell is put back after it.
    await kernel.execute('os.environ["CAIRN_TOOL_TOKEN"] = "set-by-the-user"');
    const during = await kernel.execute('os.environ["CAIRN_TOOL_TOKEN"]', { toolToken: 'tok_cell_1' });
    const after = await kernel.execute('os.environ["CAIRN_TOOL_TOKEN"]');
    expect([during.returnValue?.text, after.returnValue?.text]).toEqual([
      "'tok_cell_1'",
      "'set-by-the-user'",
    ]);
  });

  it('passes the cell output to onStream as the journal gets it; a listener that throws does not hurt the cell', async () => {
    const t = await openTestSession(flavour);
    const kernel = t.session.kernel();
    const chunks: [string, string][] = [];
    const code = 'import sys\nprint("out 1")\nprint("err 1", file=sys.stderr)\nprint("out 2")';
    const result = await kernel.execute(code, { onStream: (stream, text) => chunks.push([stream, text]) });

    expect(mergeRuns(chunks)).toEqual([
      ['stdout', 'out 1\n'],
      ['stderr', 'err 1\n'],
      ['stdout', 'out 2\n'],
    ]);
    const journal = t.events
      .ofType('kernel.stream')
      .filter((e) => e.execution_id === result.executionId)
      .map((e) => [e.stream, e.text]);
    expect(chunks).toEqual(journal);

    const throwing = await kernel.execute('print("still fine")', {
      onStream: () => {
        throw new Error('the listener broke');
      },
    });
    expect(throwing).toMatchObject({ success: true, stdout: 'still fine\n' });
    expect(t.events.ofType('kernel.stream').at(-1)?.text).toBe('still fine\n');
  });
});

describe('the tool endpoint in local kernels', () => {
  const PROBE = [
    'import json, os, sys',
    'print(json.dumps([os.environ.get("CAIRN_TOOL_ENDPOINT"), os.environ["PYTHONPATH"].split(os.pathsep)[0],',
    '                  os.environ["PYTHONPATH"].split(os.pathsep)[0] in sys.path, os.environ.get("CAIRN_TOOL_TOKEN")]))',
  ].join('\n');

  it('reaches every kernel from its start, the warm spare included, and no token comes with it', async () => {
    const clientDir = await makeTempDir('cairn-client-');
    const bases: NodeJS.ProcessEnv[] = [];
    try {
      const t = await openTestSession(STDLIB, {
        warm: true,
        scriptEnv: async (base) => {
          bases.push(base);
          return { CAIRN_TOOL_ENDPOINT: 'http://127.0.0.1:9', PYTHONPATH: clientDir };
        },
      });
      const expected = ['http://127.0.0.1:9', clientDir, true, null];

      const cold = await t.session.kernel('first').execute(PROBE);
      expect(JSON.parse(cold.stdout)).toEqual(expected);
      await waitFor(() => t.manager.warmPids().length === 1);
      const warm = await t.session.kernel('second').execute(PROBE);
      expect(t.events.ofType('kernel.started').map((e) => [e.kernel, e.warm])).toEqual([
        ['first', false],
        ['second', true],
      ]);
      expect(JSON.parse(warm.stdout)).toEqual(expected);
      // Asked at each start (the first kernel, the spare, its replacement) with the kernel's own environment.
      await waitFor(() => bases.length >= 3);
      expect(bases.every((base) => base.PATH !== undefined && base.CAIRN_TOOL_ENDPOINT === undefined)).toBe(
        true,
      );
    } finally {
      await removeDir(clientDir);
    }
  });

  it('starts the kernel anyway when the endpoint cannot be had', async () => {
    const t = await openTestSession(STDLIB, {
      scriptEnv: async () => {
        throw new Error('the endpoint did not start');
      },
    });
    const result = await t.session.kernel().execute('import os\nos.environ.get("CAIRN_TOOL_ENDPOINT")');
    expect(result.success).toBe(true);
    expect(result.returnValue).toBeNull();
  });
});

describe('time limits of a tool call', () => {
  const SLEEPER = 'import time\ntime.sleep(0.6)\n"slept"';

  it('runs without an active-time limit when asked, past the default; a limit still stops a cell', async () => {
    const t = await openTestSession(STDLIB, { limits: { activeMs: 200 } });
    const kernel = t.session.kernel();

    const unlimited = await kernel.execute(SLEEPER, { limits: { activeMs: Number.POSITIVE_INFINITY } });
    expect(unlimited).toMatchObject({ success: true, limit: null, error: null });
    expect(unlimited.returnValue?.text).toBe("'slept'");
    // Longer than the longest timer Node has (which would fire at once).
    const beyondTimer = await kernel.execute(SLEEPER, { limits: { activeMs: 2 ** 31 * 4 } });
    expect(beyondTimer).toMatchObject({ success: true, limit: null });

    const limited = await kernel.execute(SLEEPER);
    expect(limited.success).toBe(false);
    expect(limited.limit).toEqual({ kind: 'active_time', limitMs: 200, action: 'interrupted' });
    const ownLimit = await kernel.execute(SLEEPER, { limits: { activeMs: 250 } });
    expect(ownLimit.limit).toEqual({ kind: 'active_time', limitMs: 250, action: 'interrupted' });

    // The audit log says "no limit" as null.
    const lines = (await fs.readFile(path.join(t.kernelsDir, 'default', 'executions.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { limits: { active_ms: number | null } });
    expect(lines.map((line) => line.limits.active_ms)).toEqual([null, 2 ** 31 * 4, 200, 250]);
  });

  it('answers an input() that has no idle limit', async () => {
    const t = await openTestSession(STDLIB, { limits: { activeMs: 200 } });
    const kernel = t.session.kernel();
    const running = kernel.execute("input('Go on? ')", {
      limits: { activeMs: Number.POSITIVE_INFINITY, inputIdleMs: Number.POSITIVE_INFINITY },
    });
    await waitFor(() => t.events.ofType('kernel.input_request').length === 1);
    expect(kernel.info().state).toBe('waiting_input');
    kernel.reply(t.events.ofType('kernel.input_request')[0]!.request_id, 'yes');
    const result = await running;
    expect(result).toMatchObject({ success: true, limit: null });
    expect(result.returnValue?.text).toBe("'yes'");
  });
});
