import type { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CairnClient } from '../client';
import { CairnError } from '../errors';
import { EXIT } from './usage';

/** How often the command asks whether the login finished. */
const POLL_MS = 500;

export interface AuthorizeOptions {
  json: boolean;
  out: Writable;
  err: Writable;
  /** The command's own server on the local data directory: the login ends with this command. */
  local: boolean;
}

/**
 * `cairn config mcp authorize ID`: starts the server's OAuth login, prints where to log in, and waits
 * (polling GET /api/mcp/servers/{id}) until the login is done (exit 0), ends without tokens (exit 1), or
 * Ctrl+C (exit 130). The server that gets the browser's callback must stay up meanwhile: with a local
 * data directory that is this process's own, so the wait happens inside withBackend's work.
 */
export async function authorizeMcpLogin(
  client: CairnClient,
  id: string,
  options: AuthorizeOptions,
): Promise<number> {
  // Ctrl+C is taken from the start: one pressed (or sent) as soon as the URL shows must stop the wait, not
  // kill the command while its server is stopping.
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.on('SIGINT', onSigint);
  try {
    return await waitForLogin(client, id, options, stop.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

async function waitForLogin(
  client: CairnClient,
  id: string,
  options: AuthorizeOptions,
  stopped: AbortSignal,
): Promise<number> {
  const { out, err, json } = options;
  const before = await client.getMcpServer(id);
  const name = before.name;
  let url = (await client.authorizeMcpServer(id)).authorization_url;
  if (options.local && before.token_storage === 'memory') {
    // Without a keychain the tokens live in the server's memory, which is this command's: say so before the
    // user logs in for nothing.
    err.write(
      `cairn: no OS keychain here, so the tokens of this login stay in this command's memory and are lost when it exits: to keep a login, log in through a running \`cairn serve\` (add --server URL) or the app.\n`,
    );
  }
  if (json) out.write(`${JSON.stringify({ authorization_url: url })}\n`);
  else {
    out.write(`Open this URL in a browser to log in to ${name}:\n${url}\n`);
    if (before.logged_in) out.write(`(${name} is logged in already: this login replaces that one.)\n`);
    out.write('Waiting for the login to finish (Ctrl+C stops waiting)...\n');
  }
  for (;;) {
    try {
      await sleep(POLL_MS, undefined, { signal: stopped });
    } catch {
      err.write(
        options.local
          ? `Stopped waiting: the login to ${name} was not finished, and its URL no longer works (this command's server has stopped).\n`
          : `Stopped waiting: the login to ${name} is not finished yet (the server still takes it until it expires).\n`,
      );
      return EXIT.interrupted;
    }
    const now = await client.getMcpServer(id);
    if (now.authorization_url !== null) {
      // Another login replaced the one printed (a session's step-up, say): that is the one to open now.
      if (now.authorization_url !== url) {
        url = now.authorization_url;
        if (json) out.write(`${JSON.stringify({ authorization_url: url })}\n`);
        else out.write(`The login to ${name} was started again: open this URL instead:\n${url}\n`);
      }
      continue;
    }
    if (!now.logged_in) {
      throw new CairnError(
        'mcp_unavailable',
        `The login to ${name} was not finished (it expired or was refused; the browser page says why): run \`cairn config mcp authorize ${id}\` again.`,
      );
    }
    if (json) out.write(`${JSON.stringify({ logged_in: true })}\n`);
    else if (before.logged_in)
      // The API shows whether tokens are held, not whether they came from this login: say so.
      out.write(
        `The login to ${name} ended and Cairn holds tokens for it; if the browser page said the login failed, these are the earlier login's.\n`,
      );
    else out.write(`Logged in to ${name}.\n`);
    return EXIT.ok;
  }
}
