import { CairnError } from '../errors';

export const EXIT = { ok: 0, failed: 1, usage: 2, question: 3, interrupted: 130 } as const;

export const USAGE = `Usage:
  cairn serve [--host 127.0.0.1] [--port 8765] [--data-dir DIR]
              [--tls-cert FILE --tls-key FILE | --behind-tls-proxy]
              [--allowed-hosts NAME,…] [--allowed-origins https://HOST[:PORT],…] [--public-url URL]
              [--parent-ipc]
  cairn run --workspace DIR --prompt TEXT [--json] [--session ID] [--mode tools|code] [--data-dir DIR]
            [--server URL]
  cairn chat [--workspace DIR] [--session ID] [--mode tools|code] [WHERE]
  cairn projects list [--json] [WHERE]
  cairn sessions list [--project ID] [--json] [WHERE]
  cairn search QUERY [--project ID] [--session ID] [--limit N] [--before CURSOR] [--json] [WHERE]
  cairn export SESSION [--format md|json] [--output FILE] [WHERE]
  cairn config mcp list [--json] [WHERE]
  cairn config mcp add --file FILE|- [WHERE]     (a JSON body of POST /api/mcp/servers; - reads stdin)
  cairn config mcp enable|disable|test|delete ID [--json] [WHERE]
  cairn config mcp authorize ID [--json] [WHERE]           (prints the login URL and waits for the login)
  cairn config model list [--json] [--data-dir DIR]
  cairn config model add --name NAME --model MODEL [--base-url URL] [--context-window N]
                         [--max-tokens N] [--thinking-budget N] [--compact-threshold X|off]
                         [--price-input P|off] [--price-output P|off] [--price-cache-read P|off]
                         [--price-cache-write P|off] [--activate] [--data-dir DIR]
  cairn config model set ID|NAME [--name NAME] [--model MODEL] [--base-url URL] [--context-window N]
                         [--max-tokens N] [--thinking-budget N] [--compact-threshold X|off]
                         [--price-input P|off] [--price-output P|off] [--price-cache-read P|off]
                         [--price-cache-write P|off] [--activate] [--data-dir DIR]
  cairn config model activate ID|NAME [--data-dir DIR]
  cairn config model set-key ID|NAME [--data-dir DIR]      (reads the key from standard input)
  cairn tool call NAME [--json ARGS|-] [--no-wait] [--method M] [--union-id ID]
  cairn tool status|cancel CALL_ID        cairn tool output CALL_ID [--after N]
                                          (inside commands Cairn runs: its tools, from a script)
  cairn --version

WHERE: --data-dir DIR (the local data directory, the default) or --server URL (a running
\`cairn serve\`, its token in CAIRN_TOKEN; https, or http only to this machine).
chat: each line is a turn in one session (a new one in --workspace, default the current folder, unless
--session); questions and approvals are answered at the prompt. Ctrl+C cancels a running answer, twice
quits; /exit or Ctrl+D quits.

Remote use: a --host other than loopback needs --tls-cert/--tls-key (Cairn serves HTTPS) or
--behind-tls-proxy (a proxy in front does). --allowed-hosts names the host names clients use;
--allowed-origins the web pages allowed to call the API from elsewhere (app://cairn always is).
--public-url: the address browsers reach a remote server at; MCP logins (OAuth) come back to
URL/api/mcp/oauth/callback, and are refused on a remote server without it.
--price-*: US dollars per million tokens, for the estimated cost of turns (off clears one).
--compact-threshold: the share of the usable window (context minus max tokens) at which Cairn compacts
before a request, above 0 and at most 1 (default 0.8); off leaves compaction to the agent and the user.
--mode: how the agent acts: tools (calls tools, the default) or code (writes Python that runs in the
session's kernel and calls the tools as functions; needs a project with kernels). With --session, the
session is switched to it.
--parent-ipc: started by the desktop app, which hands over the token and gets the port over its channel.

Environment: CAIRN_DATA_DIR, CAIRN_TOKEN, CAIRN_ANTHROPIC_API_KEY, CAIRN_ANTHROPIC_BASE_URL, CAIRN_MODEL,
CAIRN_CONVERSATION_ONLY. See README.md.`;

/** Bad command-line usage: exit code 2 with the message and a pointer to --help. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function parseIntFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`--${name} must be a whole number (got "${value}").`);
  return n;
}

export function describeError(error: unknown): string {
  if (error instanceof CairnError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
