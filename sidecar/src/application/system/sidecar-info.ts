import { VERSION } from '../../config/version';
import type { About, Capabilities, Health } from '../../protocol';

/** What this Cairn is: its version, where its data lives, and which parts it has. */
export class SidecarInfo {
  constructor(
    private readonly deps: {
      dataDir: string;
      conversationOnly: boolean;
      hasKernels: boolean;
      hasMcp: boolean;
    },
  ) {}

  health(): Health {
    return { ok: true, name: 'cairn', version: VERSION };
  }

  about(): About {
    return {
      name: 'cairn',
      version: VERSION,
      data_dir: this.deps.dataDir,
      node: process.versions.node,
      platform: process.platform,
    };
  }

  /** `mode` is how the server was started: for this machine only, or for others (remote). */
  capabilities(mode: 'local' | 'remote'): Capabilities {
    const { conversationOnly } = this.deps;
    const full = !conversationOnly;
    return {
      mode: conversationOnly ? 'conversation-only' : mode,
      projects: full,
      shell: full,
      files: full,
      kernels: this.deps.hasKernels,
      mcp: this.deps.hasMcp,
      version: VERSION,
    };
  }
}
