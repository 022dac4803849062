import path from 'node:path';
import type { ScriptAccess } from '../tool';
import { writeCairnShim } from './cairn-shim';
import { pythonClientDir } from './runtime-assets';
import type { ScriptEndpoint } from './script-endpoint';

/**
 * Gives a call's processes the way back to the runtime: the endpoint, the call's token, `cairn_tools` on
 * PYTHONPATH and the `cairn` command first on PATH. Nothing else of Cairn's reaches them.
 */
export class ScriptAccessProvider {
  private shimWritten = false;

  constructor(
    private readonly endpoint: ScriptEndpoint,
    /** Cairn's own folder for the `cairn` command scripts run (in the data directory). */
    private readonly binDir: string,
  ) {}

  async access(token: string): Promise<ScriptAccess> {
    const endpoint = await this.endpoint.endpoint();
    if (!this.shimWritten) {
      writeCairnShim(this.binDir);
      this.shimWritten = true;
    }
    const binDir = this.binDir;
    return {
      endpoint,
      token,
      env(base) {
        return {
          ...base,
          CAIRN_TOOL_ENDPOINT: endpoint,
          CAIRN_TOOL_TOKEN: token,
          PYTHONPATH: prepend(pythonClientDir(), base.PYTHONPATH),
          ...pathWith(binDir, base),
        };
      },
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
