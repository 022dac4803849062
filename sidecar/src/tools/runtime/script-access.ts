import path from 'node:path';
import type { ScriptAccess } from '../tool';
import { writeCairnShim } from './cairn-shim';
import { pythonClientDir } from './runtime-assets';
import type { ScriptEndpoint } from './script-endpoint';

/**
 * The one way a process Cairn starts gets back to its tools: the endpoint (the Unix socket in a private
 * folder where there is one, else the loopback port), a call's token when it has one, `cairn_tools` on
 * PYTHONPATH and the `cairn` command first on PATH. Nothing else of Cairn's reaches them.
 */
export class ScriptAccessProvider {
  private shimWritten = false;

  constructor(
    private readonly endpoint: ScriptEndpoint,
    /** Cairn's own folder for the `cairn` command scripts run (in the data directory). */
    private readonly binDir: string,
  ) {}

  /** What a call's processes get (Bash, Exec): the endpoint and this call's token. */
  async access(token: string): Promise<ScriptAccess> {
    const endpoint = await this.address();
    return { endpoint, token, env: (base) => this.withEndpoint(base, endpoint, token) };
  }

  /** What a process gets that outlives single calls (a local kernel): the endpoint; its cells bring tokens. */
  async env(base: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
    return this.withEndpoint(base, await this.address(), null);
  }

  private async address(): Promise<string> {
    const endpoint = (await this.endpoint.unixEndpoint()) ?? (await this.endpoint.endpoint());
    if (!this.shimWritten) {
      writeCairnShim(this.binDir);
      this.shimWritten = true;
    }
    return endpoint;
  }

  private withEndpoint(base: NodeJS.ProcessEnv, endpoint: string, token: string | null): NodeJS.ProcessEnv {
    return {
      ...base,
      CAIRN_TOOL_ENDPOINT: endpoint,
      ...(token ? { CAIRN_TOOL_TOKEN: token } : {}),
      PYTHONPATH: prepend(pythonClientDir(), base.PYTHONPATH),
      ...pathWith(this.binDir, base),
    };
  }
}

function prepend(dir: string, list: string | undefined): string {
  return list ? `${dir}${path.delimiter}${list}` : dir;
}

/** PATH with `dir` first, under the name the environment already uses (Windows: `Path`). */
function pathWith(dir: string, base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const name = Object.keys(base).find((key) => key.toUpperCase() === 'PATH') ?? 'PATH';
  return { [name]: prepend(dir, base[name]) };
}
