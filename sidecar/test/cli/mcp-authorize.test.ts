// `cairn config mcp authorize ID` through the real command line on a local data directory, against the
// local OAuth test bed: the browser (followLogin) comes back to the command's own server, which stays up
// while the command waits; a login, a refused login and Ctrl+C.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followLogin } from '../mcp/support/follow-login';
import { type OAuthFixture, startOAuthFixture } from '../mcp/support/oauth-fixture';
import { testEnv } from '../support/harness';
import { type CliTestFolders, runCli, setUpCliTest, startCli, tearDownCliTest } from './cli-process';

let folders: CliTestFolders;
let fixture: OAuthFixture;
let serverId: string;

const authorize = (extra: string[] = []) =>
  startCli(['config', 'mcp', 'authorize', serverId, '--data-dir', folders.dataDir, ...extra], {
    env: testEnv(folders.model),
  });
const URL_LINE = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m;

beforeAll(async () => {
  folders = await setUpCliTest('mcp-authorize');
  fixture = await startOAuthFixture();
  const added = await runCli(['config', 'mcp', 'add', '--file', '-', '--data-dir', folders.dataDir], {
    env: testEnv(folders.model),
    input: JSON.stringify({ name: 'docs', transport: 'streamable_http', url: fixture.mcpUrl }),
  });
  expect(added.stderr).toBe('');
  serverId = added.stdout.match(/Added MCP server docs \((\S+)\)/)![1]!;
});

afterAll(async () => {
  await tearDownCliTest(folders, []);
  await fixture.close();
});

describe('cairn config mcp authorize', { timeout: 120_000 }, () => {
  it('prints the login URL, waits while the browser logs in, and says it is logged in', async () => {
    fixture.behaviour.denyAuthorization = false;
    const cli = authorize();
    const url = (await cli.waitForStdout(URL_LINE))[1]!;
    expect(cli.stdout.startsWith(`Open this URL in a browser to log in to docs:\n${url}\n`)).toBe(true);

    const page = await followLogin(url);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Logged in to &#34;docs&#34;');
    // The browser came back to this command's own (loopback) server.
    expect(new URL(page.url).pathname).toBe('/api/mcp/oauth/callback');

    const done = await cli.result();
    expect(done.code).toBe(0);
    expect(done.stdout.endsWith('Logged in to docs.\n')).toBe(true);
    // No keychain on the test machine: the command says the login ends with it.
    expect(done.stderr).toContain('no OS keychain here');

    expect(fixture.registeredClients()).toHaveLength(1);
    const asked = fixture.requests.find((r) => r.endpoint === 'authorize');
    expect(asked).toMatchObject({ code_challenge_method: 'S256', resource: fixture.resource, error: null });
    const token = fixture.requests.find((r) => r.endpoint === 'token');
    expect(token).toMatchObject({
      grant_type: 'authorization_code',
      resource: fixture.resource,
      status: 200,
    });
  });

  it('ends with exit 1 and says the login was not finished when the authorization server refuses', async () => {
    fixture.behaviour.denyAuthorization = true;
    const cli = authorize();
    const url = (await cli.waitForStdout(URL_LINE))[1]!;
    const page = await followLogin(url);
    expect(page.status).toBe(400);
    expect(page.body).toContain('access_denied');

    const done = await cli.result();
    expect(done.code).toBe(1);
    expect(done.stdout).not.toContain('Logged in');
    expect(done.stderr).toContain(
      `cairn: The login to docs was not finished (it expired or was refused; the browser page says why): run \`cairn config mcp authorize ${serverId}\` again.`,
    );
  });

  it('prints the URL as JSON with --json and stops waiting on Ctrl+C with exit 130', async () => {
    fixture.behaviour.denyAuthorization = false;
    const cli = authorize(['--json']);
    await cli.waitForStdout(/\n/);
    expect(JSON.parse(cli.stdout)).toEqual({ authorization_url: expect.stringMatching(URL_LINE) });
    cli.child.kill('SIGINT');
    const done = await cli.result();
    expect(done.code).toBe(130);
    expect(done.stderr).toContain('Stopped waiting: the login to docs was not finished');
  });
});
