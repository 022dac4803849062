// A server that answers in the wrong shape: the command line says which field and what was expected, in
// English, though `cairn projects list --server` loads no classic zod (the wire schemas are zod/mini).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { killLeftoverClis, runCli } from './cli-process';

let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ projects: [{ id: 7 }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await killLeftoverClis();
  await new Promise((resolve) => server.close(resolve));
});

it('names the field of an answer in the wrong shape and what it should have been', async () => {
  const result = await runCli(['projects', 'list', '--server', url], {
    env: { ...process.env, CAIRN_TOKEN: 't'.repeat(43) },
  });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(
    'Unexpected answer from /api/projects: projects.0.id: Invalid input: expected string, received number',
  );
});
