// `cairn serve` for remote use, as a user starts it: flags checked before anything starts, HTTPS from a
// real certificate on a non-loopback bind, and `cairn run --server` over TLS, refusing what would leak
// the token (plain http to another machine, a redirect).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Capabilities } from '../../src/protocol';
import { json, rawRequest } from '../server/raw-http';
import { makeTestCertificate, type TestCertificate } from '../server/test-certificate';
import { testEnv } from '../support/harness';
import type { ModelServer } from '../support/model-server';
import { type CliProcess, jsonLines, runCli, setUpCliTest, startCli, tearDownCliTest } from './cli-process';

const TOKEN = 'remote-cli-token-0123456789-abcdefghijklmn';

let model: ModelServer;
let dataDir: string;
let workspace: string;
let cert: TestCertificate;
let other: TestCertificate;
const strays: (number | null)[] = [];

beforeAll(() => {
  cert = makeTestCertificate({ names: ['cairn.test'], ips: ['127.0.0.1'] });
  other = makeTestCertificate({ names: ['other.test'] });
});
afterAll(() => {
  cert?.remove();
  other?.remove();
});
beforeEach(async () => {
  ({ model, dataDir, workspace } = await setUpCliTest('remote'));
});
afterEach(() => tearDownCliTest({ model, dataDir, workspace }, strays));

const lockFile = () => path.join(dataDir, 'cairn.lock');
const serveArgs = (...extra: string[]) => ['serve', '--port', '0', '--data-dir', dataDir, ...extra];
const tlsArgs = () => ['--tls-cert', cert.certFile, '--tls-key', cert.keyFile];

/** Starts `cairn serve ARGS` and waits for its ready line; the URL and port it printed. */
async function startServing(args: string[], env: NodeJS.ProcessEnv) {
  const proc = startCli(args, { env });
  const match = await proc.waitForStdout(/Cairn (https?:\/\/\S+?:(\d+)) is ready[^\n]*\n(\S+)\n/);
  return { proc, url: match[1]!, port: Number(match[2]), browserUrl: match[3]! };
}

async function stop(proc: CliProcess) {
  proc.child.kill('SIGTERM');
  return proc.result();
}

// Each CLI start costs a second or more of TypeScript loading; the ceiling only guards against hangs.
describe('cairn serve for remote use', { timeout: 120_000 }, () => {
  interface Refusal {
    label: string;
    /** A function: the certificate exists only once the tests run. */
    args: () => string[];
    env?: NodeJS.ProcessEnv;
    says: string[];
  }
  it.each<Refusal>([
    {
      label: 'a non-loopback --host without TLS',
      args: () => ['--host', '0.0.0.0'],
      says: ['0.0.0.0', '--tls-cert FILE --tls-key FILE', '--behind-tls-proxy'],
    },
    { label: '--tls-cert alone', args: () => ['--tls-cert', cert.certFile], says: ['give both, or neither'] },
    {
      label: 'both TLS and --behind-tls-proxy',
      args: () => [...tlsArgs(), '--behind-tls-proxy'],
      says: ['not both'],
    },
    {
      label: '--behind-tls-proxy without --allowed-hosts',
      args: () => ['--host', '0.0.0.0', '--behind-tls-proxy'],
      says: ['--allowed-hosts', 'proxy_set_header Host $host', 'X-Forwarded-Proto'],
    },
    {
      label: 'a short CAIRN_TOKEN',
      args: () => ['--host', '0.0.0.0', '--behind-tls-proxy', '--allowed-hosts', 'cairn.test'],
      env: { CAIRN_TOKEN: 'short-token' },
      says: ['at least 32 characters'],
    },
    {
      label: 'an origin with a path',
      args: () => ['--allowed-origins', 'https://desk.example.com/app'],
      says: ['--allowed-origins takes origins'],
    },
  ])('refuses $label with exit 2, before taking the data directory', async ({ args, env, says }) => {
    const result = await runCli(serveArgs(...args()), { env: testEnv(model, env) });

    expect(result.code).toBe(2);
    for (const text of says) expect(result.stderr).toContain(text);
    expect(result.stdout).toBe('');
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('names a certificate file it cannot use, with exit 1', async () => {
    const missing = path.join(cert.dir, 'missing.pem');
    const absent = await runCli(serveArgs('--tls-cert', missing, '--tls-key', cert.keyFile), {
      env: testEnv(model),
    });
    expect(absent.code).toBe(1);
    expect(absent.stderr).toContain(`${missing} (--tls-cert): it does not exist`);

    const mismatched = await runCli(serveArgs('--tls-cert', cert.certFile, '--tls-key', other.keyFile), {
      env: testEnv(model),
    });
    expect(mismatched.code).toBe(1);
    expect(mismatched.stderr).toContain('does not belong to the certificate');
    expect(mismatched.stdout).toBe('');
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('binds 0.0.0.0 with TLS: https only, for the allowed name, in remote mode', async () => {
    const serve = await startServing(
      serveArgs('--host', '0.0.0.0', ...tlsArgs(), '--allowed-hosts', 'cairn.test'),
      testEnv(model, { CAIRN_TOKEN: TOKEN }),
    );
    expect(serve.url).toBe(`https://cairn.test:${serve.port}`);
    expect(serve.browserUrl).toBe(`https://cairn.test:${serve.port}/#token=${TOKEN}`);

    const request = (host: string, route: string) =>
      rawRequest({
        port: serve.port,
        method: 'GET',
        path: route,
        headers: { host, authorization: `Bearer ${TOKEN}` },
        tls: { ca: cert.cert, servername: 'cairn.test' },
      });
    const caps = await request(`cairn.test:${serve.port}`, '/api/capabilities');
    expect(caps.status).toBe(200);
    expect(json<Capabilities>(caps).mode).toBe('remote');
    // The wildcard bind address names no host; an unlisted name is refused too.
    expect((await request(`0.0.0.0:${serve.port}`, '/api/health')).status).toBe(403);
    expect((await request(`box.lan:${serve.port}`, '/api/health')).status).toBe(403);
    // Plain http to the TLS port gets no answer at all.
    await expect(fetch(`http://127.0.0.1:${serve.port}/api/health`)).rejects.toThrow();

    expect((await stop(serve.proc)).code).toBe(0);
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('warns when 0.0.0.0 is bound with no --allowed-hosts', async () => {
    const serve = await startServing(serveArgs('--host', '0.0.0.0', ...tlsArgs()), testEnv(model));
    expect(serve.proc.stderr).toContain('no --allowed-hosts');
    expect(serve.url).toBe(`https://127.0.0.1:${serve.port}`);
    expect((await stop(serve.proc)).code).toBe(0);
  });
});

describe('cairn run --server over TLS', { timeout: 120_000 }, () => {
  it('completes a turn over https, trusting the certificate through NODE_EXTRA_CA_CERTS', async () => {
    const serve = await startServing(serveArgs(...tlsArgs()), testEnv(model, { CAIRN_TOKEN: TOKEN }));
    expect(serve.url).toMatch(/^https:\/\/127\.0\.0\.1:/);
    model.enqueue({ content: [{ type: 'text', text: 'Answered over TLS.' }] });

    const untrusted = await runCli(
      ['run', '--server', serve.url, '--workspace', workspace, '--prompt', 'hi', '--json'],
      { env: testEnv(model, { CAIRN_TOKEN: TOKEN }) },
    );
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toContain('self-signed certificate');

    const result = await runCli(
      ['run', '--server', serve.url, '--workspace', workspace, '--prompt', 'hi', '--json'],
      { env: testEnv(model, { CAIRN_TOKEN: TOKEN, NODE_EXTRA_CA_CERTS: cert.certFile }) },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const printed = jsonLines(result.stdout);
    expect(printed.at(-1)?.type).toBe('turn.completed');
    expect(JSON.stringify(printed)).toContain('Answered over TLS.');
    expect((await stop(serve.proc)).code).toBe(0);
  });

  it('refuses plain http to another machine before sending anything', async () => {
    const result = await runCli(
      ['run', '--server', 'http://cairn.example.com:8765', '--workspace', workspace, '--prompt', 'hi'],
      { env: testEnv(model, { CAIRN_TOKEN: TOKEN }) },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Refusing to send the token over plain http to cairn.example.com:8765');
    expect(result.stderr).not.toContain(TOKEN);
  });

  it('does not follow a redirect, so the token never reaches the other address', async () => {
    const elsewhere: http.IncomingHttpHeaders[] = [];
    const target = http.createServer((req, res) => {
      elsewhere.push(req.headers);
      res.end('{}');
    });
    const redirecting = http.createServer((req, res) => {
      res.writeHead(307, {
        location: `http://localhost:${(target.address() as AddressInfo).port}${req.url}`,
      });
      res.end();
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
      const result = await runCli(['run', '--server', base, '--workspace', workspace, '--prompt', 'hi'], {
        env: testEnv(model, { CAIRN_TOKEN: TOKEN }),
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('with a redirect to http://localhost:');
      expect(result.stderr).toContain('use the final address as --server');
      expect(result.stderr).not.toContain(TOKEN);
      expect(elsewhere).toEqual([]);
    } finally {
      await new Promise((resolve) => redirecting.close(resolve));
      await new Promise((resolve) => target.close(resolve));
    }
  });
});
