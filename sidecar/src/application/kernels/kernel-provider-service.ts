import { badRequest, CairnError } from '../../errors';
import { checkServerUrl } from '../../kernels/jupyter/server-url';
import type { JupyterTarget } from '../../kernels/kernel-manager';
import type {
  KernelProviderSettings,
  KernelProviderTestResult,
  UpdateKernelProviderRequest,
} from '../../protocol';
import { type Keychain, withKeychainHint } from '../../secrets/keychain';
import type { Store } from '../../store/store';

/** The saved provider (without the token, which lives in the keychain). */
export const KERNEL_PROVIDER_SETTING = 'kernel.provider';
export const JUPYTER_TOKEN_ACCOUNT = 'jupyter-server-token';
const DEFAULT_KERNEL_NAME = 'python3';

interface SavedProvider {
  provider: 'local' | 'jupyter';
  jupyter_url: string | null;
  jupyter_kernel_name: string;
}

export const JUPYTER_TOKEN_HINT =
  'No OS keychain is available to keep the Jupyter token: set CAIRN_JUPYTER_URL and CAIRN_JUPYTER_TOKEN in the environment instead.';

/**
 * Where new kernels start: this machine, or a Jupyter Server (URL and kernelspec in the settings, token in
 * the OS keychain). CAIRN_JUPYTER_URL with CAIRN_JUPYTER_TOKEN (and CAIRN_JUPYTER_KERNEL) override the
 * settings, which then cannot be changed through the API.
 */
export class KernelProviderService {
  /** The token read from the keychain, so starting a kernel does not ask the keychain every time. */
  private cachedToken: string | null | undefined;

  constructor(
    private readonly options: {
      store: Store;
      keychain: Keychain;
      env: NodeJS.ProcessEnv;
    },
  ) {}

  async get(): Promise<KernelProviderSettings> {
    const override = this.envOverride();
    if (override) {
      return {
        provider: 'jupyter',
        jupyter: {
          url: override.baseUrl,
          kernel_name: override.kernelName,
          has_token: override.token !== '',
        },
        env_override: true,
      };
    }
    const saved = this.saved();
    return {
      provider: saved.provider,
      jupyter: {
        url: saved.jupyter_url,
        kernel_name: saved.jupyter_kernel_name,
        has_token: (await this.savedToken()) !== null,
      },
      env_override: false,
    };
  }

  /** Saves the provider; the token goes to the keychain (an empty one keeps the saved token). */
  async update(request: UpdateKernelProviderRequest): Promise<KernelProviderSettings> {
    if (this.envOverride()) {
      throw badRequest(
        'The kernel provider is set by CAIRN_JUPYTER_URL in the environment; unset it to change the provider here.',
      );
    }
    const current = this.saved();
    const url = request.jupyter_url === undefined ? current.jupyter_url : normaliseUrl(request.jupyter_url);
    const next: SavedProvider = {
      provider: request.provider,
      jupyter_url: url,
      jupyter_kernel_name: request.jupyter_kernel_name ?? current.jupyter_kernel_name,
    };
    const newToken = request.jupyter_token?.trim() ?? '';
    if (next.provider === 'jupyter') {
      if (!url)
        throw badRequest(
          'A Jupyter Server needs its address (jupyter_url), e.g. https://jupyter.example.com/.',
        );
      const keeps = !request.clear_token && (newToken !== '' || (await this.savedToken()) !== null);
      if (!keeps) throw badRequest('A Jupyter Server needs its token (jupyter_token).');
    }
    // The keychain first: a refused token must not leave a provider saved that cannot start kernels.
    if (request.clear_token) {
      await this.options.keychain.delete(JUPYTER_TOKEN_ACCOUNT).catch((err: unknown) => {
        throw withKeychainHint(err, JUPYTER_TOKEN_HINT);
      });
      this.cachedToken = null;
    }
    if (newToken !== '') {
      await this.options.keychain.set(JUPYTER_TOKEN_ACCOUNT, newToken).catch((err: unknown) => {
        throw withKeychainHint(err, JUPYTER_TOKEN_HINT);
      });
      this.cachedToken = newToken;
    }
    this.options.store.settings.set(KERNEL_PROVIDER_SETTING, next);
    return this.get();
  }

  /** Asks the server in the request (or the saved one) for its version and kernelspecs; starts nothing. */
  async test(request: UpdateKernelProviderRequest): Promise<KernelProviderTestResult> {
    const override = this.envOverride();
    const saved = this.saved();
    const url = override?.baseUrl ?? normaliseUrl(request.jupyter_url ?? saved.jupyter_url);
    if (!url) throw badRequest('Give the Jupyter Server address (jupyter_url) to test.');
    const token = override?.token || request.jupyter_token?.trim() || (await this.savedToken());
    if (!token) throw badRequest('Give the Jupyter Server token (jupyter_token) to test.');
    // Loaded on first use, like the kernels themselves: the library is large.
    const { checkJupyterServer } = await import('../../kernels/jupyter/server-check');
    const found = await checkJupyterServer({ baseUrl: url, token });
    return { ok: true, version: found.version, kernel_names: found.kernelNames };
  }

  /** Where the next kernel starts: the Jupyter Server, or null for this machine. */
  async target(): Promise<JupyterTarget | null> {
    const override = this.envOverride();
    if (override) {
      if (!override.token) {
        throw new CairnError(
          'jupyter_unreachable',
          'CAIRN_JUPYTER_URL is set but CAIRN_JUPYTER_TOKEN is not: set the Jupyter Server token too.',
        );
      }
      return override;
    }
    const saved = this.saved();
    if (saved.provider !== 'jupyter' || !saved.jupyter_url) return null;
    const token = await this.savedToken();
    if (!token) {
      throw new CairnError(
        'jupyter_unreachable',
        'Kernels are set to run on a Jupyter Server, but no token is saved: add it in Settings → Python kernels.',
      );
    }
    return { baseUrl: saved.jupyter_url, token, kernelName: saved.jupyter_kernel_name };
  }

  private envOverride(): JupyterTarget | null {
    const { env } = this.options;
    const url = env.CAIRN_JUPYTER_URL?.trim();
    if (!url) return null;
    return {
      baseUrl: normaliseUrl(url)!,
      token: env.CAIRN_JUPYTER_TOKEN?.trim() ?? '',
      kernelName: env.CAIRN_JUPYTER_KERNEL?.trim() || DEFAULT_KERNEL_NAME,
    };
  }

  private saved(): SavedProvider {
    const raw = this.options.store.settings.get<Partial<SavedProvider>>(KERNEL_PROVIDER_SETTING);
    return {
      provider: raw?.provider === 'jupyter' ? 'jupyter' : 'local',
      jupyter_url: typeof raw?.jupyter_url === 'string' ? raw.jupyter_url : null,
      jupyter_kernel_name:
        typeof raw?.jupyter_kernel_name === 'string' ? raw.jupyter_kernel_name : DEFAULT_KERNEL_NAME,
    };
  }

  /** The saved token, or null when there is none or no keychain to hold one. */
  private async savedToken(): Promise<string | null> {
    if (this.cachedToken !== undefined) return this.cachedToken;
    try {
      this.cachedToken = await this.options.keychain.get(JUPYTER_TOKEN_ACCOUNT);
    } catch {
      return null;
    }
    return this.cachedToken;
  }
}

/** The URL checked and normalised (https, or plain http on this machine only); null stays null. */
function normaliseUrl(url: string | null): string | null {
  if (url === null || url.trim() === '') return null;
  try {
    return checkServerUrl(url.trim());
  } catch (err) {
    throw badRequest(err instanceof Error ? err.message : String(err));
  }
}
