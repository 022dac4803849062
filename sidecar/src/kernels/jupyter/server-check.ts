import { KernelSpecAPI, ServerConnection } from '@jupyterlab/services';
import { CairnError } from '../../errors';
import { describeServerError, type JupyterServerAddress, makeServerSettings } from './server-connection';

/** What a Jupyter Server said when asked with the token. */
export interface JupyterServerCheck {
  version: string;
  kernelNames: string[];
}

/**
 * Asks a Jupyter Server for its version and kernelspecs with the token, starting nothing: the "Test
 * connection" of the kernel settings. Throws jupyter_unreachable (or bad_request for a bad address).
 */
export async function checkJupyterServer(address: JupyterServerAddress): Promise<JupyterServerCheck> {
  let settings: ServerConnection.ISettings;
  try {
    settings = makeServerSettings(address);
  } catch (err) {
    throw new CairnError('bad_request', err instanceof Error ? err.message : String(err));
  }
  try {
    // /api answers without a token on most servers; the kernelspecs prove the token is accepted.
    const response = await ServerConnection.makeRequest(`${settings.baseUrl}api`, {}, settings);
    if (!response.ok) throw await ServerConnection.ResponseError.create(response);
    const about = (await response.json()) as { version?: unknown };
    const specs = await KernelSpecAPI.getSpecs(settings);
    return {
      version: typeof about.version === 'string' ? about.version : 'unknown',
      kernelNames: Object.keys(specs.kernelspecs).sort(),
    };
  } catch (err) {
    throw new CairnError('jupyter_unreachable', describeServerError(err, settings.baseUrl).message, {
      cause: err,
    });
  }
}
