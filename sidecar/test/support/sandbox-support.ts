import { describe } from 'vitest';
import { sandboxSupport } from '../../src/process/sandbox';

/**
 * The sandbox tests run on Linux (bubblewrap); there a missing or broken bwrap fails them with what to
 * install, rather than skipping them unseen.
 */
export const describeSandbox = describe.skipIf(process.platform !== 'linux');

/** Throws, saying what to install, when bubblewrap cannot run here. Call in the suite's beforeAll. */
export function requireBubblewrap(): void {
  const support = sandboxSupport();
  if (!support.ok) {
    throw new Error(
      `The sandbox tests need bubblewrap. Install it with: apt-get install -y bubblewrap (${support.message})`,
    );
  }
}
