// `cairn projects list`, `sessions list`, `search`, `export` and `chat` through the real command line:
// against a running server (--server, the harness's sidecar), then on the same data directory locally.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, tempDir, testEnv } from '../support/harness';
import { CAN_USE_TERMINAL, killLeftoverClis, runCli, startCliOnTerminal } from './cli-process';

let harness: Harness;
let dataDir: string;
let projectId: string;
let sessionId: string;
let turnId: string;

beforeAll(async () => {
  dataDir = tempDir('cli-data-commands');
  harness = await startHarness({ dataDir });
  ({ projectId, sessionId } = await harness.newSession({ title: 'Animals' }));
  harness.model.enqueue({ content: [{ type: 'text', text: 'The secret animal is a purple giraffe.' }] });
  turnId = (await harness.startTurn(sessionId, 'name an animal')).id;
  await harness.waitForTurnEnd(turnId);
});

afterAll(async () => {
  await killLeftoverClis();
  await harness.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const env = (extra: NodeJS.ProcessEnv = {}) => testEnv(harness.model, extra);

describe('against a running server (--server)', { timeout: 120_000 }, () => {
  const remote = (...args: string[]) =>
    runCli([...args, '--server', harness.server.url], { env: env({ CAIRN_TOKEN: harness.server.token }) });

  it('sessions list --json prints the API shape', async () => {
    const result = await remote('sessions', 'list', '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const { sessions } = JSON.parse(result.stdout) as { sessions: { id: string; title: string }[] };
    expect(sessions.map((s) => [s.id, s.title])).toEqual([[sessionId, 'Animals']]);
  });

  it('search prints each hit with its session, kind and turn, the matches in [brackets] off a terminal', async () => {
    const result = await remote('search', 'giraffe');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Animals (${sessionId}) · message · turn ${turnId}\n`);
    expect(result.stdout).toContain('purple [giraffe]');
  });

  it('refuses without CAIRN_TOKEN, and plain http to another machine', async () => {
    const noToken = await runCli(['sessions', 'list', '--server', harness.server.url], { env: env() });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('--server needs the server token in CAIRN_TOKEN');
    const plain = await runCli(['projects', 'list', '--server', 'http://example.com:8765'], {
      env: env({ CAIRN_TOKEN: harness.server.token }),
    });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('Refusing to send the token over plain http to example.com:8765');
  });

  it.skipIf(!CAN_USE_TERMINAL)('chat runs its turns on the server', async () => {
    harness.model.enqueue({ content: [{ type: 'text', text: 'Served from afar.' }] });
    const cli = startCliOnTerminal(
      ['chat', '--server', harness.server.url, '--workspace', harness.projectDir],
      { env: env({ CAIRN_TOKEN: harness.server.token }) },
    );
    await cli.waitForStdout(/Type a message[\s\S]*> /);
    cli.type('hello there\r');
    const chatSession = (await cli.waitForStdout(/Session (\S+) \(resume/))[1]!;
    await cli.waitForStdout(/Served from afar\.[\s\S]*> /);
    cli.type('/exit\r');
    expect((await cli.result()).code).toBe(0);
    const session = await harness.api<{ project_id: string; title: string }>(
      'GET',
      `/api/sessions/${chatSession}`,
    );
    expect(session.body).toMatchObject({ project_id: projectId, title: 'hello there' });
  });
});

describe('on the local data directory', { timeout: 120_000 }, () => {
  // The server lets go of the data directory: each command opens it in its own process.
  beforeAll(() => harness.server.stop());
  const local = (...args: string[]) => runCli([...args, '--data-dir', dataDir], { env: env() });

  it('projects list prints a table, and the API shape with --json', async () => {
    const table = await local('projects', 'list');
    expect(table.code).toBe(0);
    const [header, row] = table.stdout.split('\n');
    expect(header).toMatch(/^ID\s+NAME\s+LAST OPENED\s+PATH$/);
    expect(row).toMatch(
      new RegExp(`^${projectId}\\s+\\S+\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+${harness.projectDir}$`),
    );
    const json = JSON.parse((await local('projects', 'list', '--json')).stdout) as {
      projects: { id: string }[];
    };
    expect(json.projects.map((p) => p.id)).toEqual([projectId]);
  });

  it('sessions list --project prints that project’s sessions', async () => {
    const result = await local('sessions', 'list', '--project', projectId);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ID\s+UPDATED\s+MODE\s+PROJECT\s+TITLE\n/);
    expect(result.stdout).toMatch(
      new RegExp(`\\n${sessionId}\\s+\\S+ \\S+\\s+tools\\s+${projectId}\\s+Animals\\n`),
    );
  });

  it('search --json prints the SearchResult', async () => {
    const result = await local('search', 'giraffe', '--project', projectId, '--limit', '5', '--json');
    expect(result.code).toBe(0);
    const found = JSON.parse(result.stdout) as {
      hits: { session_id: string; kind: string; turn_id: string }[];
    };
    expect(found.hits[0]).toMatchObject({ session_id: sessionId, kind: 'message', turn_id: turnId });
  });

  it('export prints Markdown, and writes the JSON export to --output', async () => {
    const md = await local('export', sessionId);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('purple giraffe');
    const file = path.join(tempDir('cli-export'), 'animals.json');
    const json = await local('export', sessionId, '--format', 'json', '--output', file);
    expect(json.code).toBe(0);
    expect(json.stdout).toBe('');
    const exported = JSON.parse(fs.readFileSync(file, 'utf8')) as { format: string; session: { id: string } };
    expect(exported).toMatchObject({ format: 'cairn.session', session: { id: sessionId, title: 'Animals' } });
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
});
