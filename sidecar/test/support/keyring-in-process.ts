import { afterAll, beforeAll } from 'vitest';
import { startTestKeyring, type TestKeyring } from './test-keyring';

/**
 * For the enclosing describe block: a test keyring (test-keyring.ts) that keytar in this test process
 * uses, with the environment put back afterwards. libsecret keeps the first session bus it connects
 * to, so call this before anything in the file uses keytar, and give each keyring a file of its own.
 */
export function useKeyringInProcess(): { readonly keyring: TestKeyring } {
  const saved = {
    DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS,
    DISPLAY: process.env.DISPLAY,
  };
  let keyring: TestKeyring | null = null;

  beforeAll(async () => {
    keyring = await startTestKeyring();
    process.env.DBUS_SESSION_BUS_ADDRESS = keyring.env.DBUS_SESSION_BUS_ADDRESS;
    // No desktop session to reach either: only the private bus.
    delete process.env.DISPLAY;
  });

  afterAll(async () => {
    await keyring?.stop();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  return {
    get keyring() {
      if (!keyring) throw new Error('The test keyring starts in beforeAll: use it inside a test or hook.');
      return keyring;
    },
  };
}
