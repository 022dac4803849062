import { request } from 'node:http';
import { SCRIPT_MESSAGE_LIMIT, ScriptReply } from '../protocol';

/** A failure to reach the tool runtime or to be let in: the script cannot go on as planned. */
export class ToolRuntimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolRuntimeError';
  }
}

/** Where the runtime is and the token of the call whose process this is, from the environment. */
export function scriptTarget(env: NodeJS.ProcessEnv): { endpoint: string; token: string } {
  const endpoint = env.CAIRN_TOOL_ENDPOINT;
  const token = env.CAIRN_TOOL_TOKEN;
  if (!endpoint || !token) {
    throw new ToolRuntimeError(
      `No ${endpoint ? 'CAIRN_TOOL_TOKEN' : 'CAIRN_TOOL_ENDPOINT'} in the environment: Cairn's tools are ` +
        "reachable only from commands that Cairn's Bash or Exec runs (and an agent's execute_code cell).",
    );
  }
  return { endpoint, token };
}

/**
 * One request to the script endpoint (`http://127.0.0.1:PORT` or `unix:PATH`): the reply, or a
 * ToolRuntimeError for a transport or token failure. Nothing is retried.
 */
export function sendScriptRequest(
  target: { endpoint: string; token: string },
  op: 'call' | 'status' | 'cancel' | 'output',
  body: unknown,
): Promise<ScriptReply> {
  const text = JSON.stringify(body);
  if (Buffer.byteLength(text) > SCRIPT_MESSAGE_LIMIT) {
    return Promise.reject(new ToolRuntimeError('The request is larger than 8 MiB and was not sent.'));
  }
  const where = target.endpoint.startsWith('unix:')
    ? { socketPath: target.endpoint.slice('unix:'.length) }
    : hostAndPort(target.endpoint);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        ...where,
        method: 'POST',
        path: `/v1/${op}`,
        headers: {
          authorization: `Bearer ${target.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(raw);
          } catch {
            return reject(new ToolRuntimeError(`The tool runtime answered ${res.statusCode} with no JSON.`));
          }
          if (res.statusCode !== 200) {
            const message = (parsed as { error?: { message?: string } }).error?.message ?? raw;
            return reject(
              new ToolRuntimeError(`The tool runtime refused the request (${res.statusCode}): ${message}`),
            );
          }
          const reply = ScriptReply.safeParse(parsed);
          if (!reply.success)
            return reject(new ToolRuntimeError('The tool runtime sent a reply it should not.'));
          resolve(reply.data);
        });
      },
    );
    req.on('error', (error) =>
      reject(
        new ToolRuntimeError(`Could not reach the tool runtime at ${target.endpoint}: ${error.message}`),
      ),
    );
    req.end(text);
  });
}

function hostAndPort(endpoint: string): { host: string; port: number } {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ToolRuntimeError(`CAIRN_TOOL_ENDPOINT is neither http://HOST:PORT nor unix:PATH: ${endpoint}`);
  }
  if (url.protocol !== 'http:') {
    throw new ToolRuntimeError(`CAIRN_TOOL_ENDPOINT is neither http://HOST:PORT nor unix:PATH: ${endpoint}`);
  }
  return { host: url.hostname, port: Number(url.port || 80) };
}
