import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Question } from '../../src/protocol';
import { readReplacedText } from '../../src/tools/builtin/write-previous';
import { type Harness, startHarness } from '../support/harness';

/**
 * The session's results folder is writable from inside the project sandbox (project-sandbox.ts gives
 * `writable: [results]`), so code the model runs there can plant a symlink in a call's folder. The sidecar,
 * which runs unconfined, must not write or read through it: Write keeps the text it replaced in a folder
 * of the session the sandbox cannot see, and reads and serves only regular files, never through a link.
 */
describe('Write keeps its replaced text without following a planted symlink', () => {
  let h: Harness;
  let sessionId: string;
  let outside: string;

  beforeAll(async () => {
    h = await startHarness();
    ({ sessionId } = await h.newSession({ approval: 'ask' }));
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-outside-'));
  });
  afterAll(async () => {
    await h?.close();
    fs.rmSync(outside, { recursive: true, force: true });
  });

  const pendingQuestions = async () =>
    (await h.api<{ questions: Question[] }>('GET', `/api/sessions/${sessionId}/questions`)).body.questions;

  it('does not write the old text through a symlink planted at <call>/previous', async () => {
    // What the model wants written outside: it first puts it in a project file, then overwrites that file.
    fs.writeFileSync(path.join(h.projectDir, 'payload.txt'), 'echo pwned  # planted line\n');
    const target = path.join(outside, 'bashrc');
    fs.writeFileSync(target, "# the user's own file\n");
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Write', input: { path: 'payload.txt', content: 'x\n' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'write it');
    await expect.poll(async () => (await pendingQuestions()).length).toBe(1);
    const questions = await pendingQuestions();
    // While the Write waits for approval its folder already exists (status.json): plant the link there.
    const callDir = path.join(h.dataDir, 'sessions', sessionId, 'tool-calls', questions[0]!.tool_call_id!);
    expect(fs.existsSync(callDir)).toBe(true);
    fs.symlinkSync(target, path.join(callDir, 'previous'));
    await h.api('POST', `/api/questions/${questions[0]!.id}/answer`, { answer: 'allow' });
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(fs.readFileSync(target, 'utf8')).toBe("# the user's own file\n");
  });

  it('does not serve a file outside through a symlink, nor wait on a pipe, put where the text is kept', async () => {
    fs.writeFileSync(path.join(h.projectDir, 'notes.md'), 'old\n');
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Write', input: { path: 'notes.md', content: 'new\n' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'write it');
    await expect.poll(async () => (await pendingQuestions()).length).toBe(1);
    const questions = await pendingQuestions();
    const callId = questions[0]!.tool_call_id!;
    await h.api('POST', `/api/questions/${questions[0]!.id}/answer`, { answer: 'allow' });
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    const kept = path.join(h.dataDir, 'sessions', sessionId, 'replaced-text', `${callId}.txt`);
    expect(fs.readFileSync(kept, 'utf8')).toBe('old\n');
    const previous = () =>
      fetch(`${h.server.url}/api/tool-calls/${callId}/previous`, {
        headers: { authorization: `Bearer ${h.server.token}` },
      });
    const secret = path.join(outside, 'id_rsa');
    fs.writeFileSync(secret, 'PRIVATE KEY\n');
    fs.rmSync(kept);
    fs.symlinkSync(secret, kept);
    const linked = await previous();
    expect(linked.status).toBe(404);
    expect(await linked.text()).not.toContain('PRIVATE KEY');
    if (process.platform === 'win32') return;
    fs.rmSync(kept);
    execFileSync('mkfifo', [kept]);
    expect((await previous()).status).toBe(404);
  });
});

describe('the text a Write replaces is read without following what was swapped in', () => {
  it('reads a regular file inside the project, and nothing through a link or from a pipe', async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-replaced-')));
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-outside-'));
    try {
      fs.writeFileSync(path.join(root, 'plain.txt'), 'kept\n');
      expect(await readReplacedText(path.join(root, 'plain.txt'), root)).toBe('kept\n');
      fs.writeFileSync(path.join(outside, 'secret'), 'from outside\n');
      fs.symlinkSync(path.join(outside, 'secret'), path.join(root, 'link.txt'));
      expect(await readReplacedText(path.join(root, 'link.txt'), root)).toBeNull();
      // A file the project's .gitignore excludes (secrets, say) is never copied into Cairn's data.
      fs.writeFileSync(path.join(root, '.gitignore'), '.env\n');
      fs.writeFileSync(path.join(root, '.env'), 'TOKEN=secret\n');
      expect(await readReplacedText(path.join(root, '.env'), root)).toBeNull();
      if (process.platform !== 'win32') {
        execFileSync('mkfifo', [path.join(root, 'pipe.txt')]);
        expect(await readReplacedText(path.join(root, 'pipe.txt'), root)).toBeNull();
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
