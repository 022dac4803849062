// Settings → Python kernels in headless Debian Chromium against a real sidecar: a project's interpreter set,
// refused and reset through the real API (which runs the interpreters), and the kernel provider tested
// against a real Jupyter Server and saved with its token in a real Secret Service (gnome-keyring on a
// private D-Bus). Its own file, so the keyring is in the environment before keytar first connects.
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KERNEL_PROVIDER_SETTING } from '../../sidecar/src/application/kernels/kernel-provider-service';
import {
  startJupyterServer,
  type TestJupyterServer,
} from '../../sidecar/test/kernels/jupyter/jupyter-server';
import { STDLIB_KERNEL_ENV } from '../../sidecar/test/support/kernel-harness';
import { useKeyringInProcess } from '../../sidecar/test/support/keyring-in-process';
import { browserSuite } from './support/browser-suite';
import { createSession, screenshot } from './support/cairn-ui';

const TEST_TIMEOUT = 180_000;
/** How long the UI may take to show what the server did (a guard against hangs only). */
const UI_WAIT = 30_000;
const PYTHON = '/usr/bin/python3';
const TOKEN_TYPED = 'e2e-typed-token-9f8e7d6c5b4a';

describe('Settings: Python kernels', () => {
  // Before the server starts: keytar connects to the session bus it names on its first use.
  useKeyringInProcess();
  const suite = browserSuite({
    env: {
      ...STDLIB_KERNEL_ENV,
      CAIRN_KERNEL_PYTHON: undefined,
      CAIRN_JUPYTER_URL: undefined,
      CAIRN_JUPYTER_TOKEN: undefined,
    },
    timeoutMs: TEST_TIMEOUT,
  });
  let jupyter: TestJupyterServer;
  let projectId: string;

  beforeAll(async () => {
    ({ projectId } = createSession(suite.ui, 'interpreter session'));
    jupyter = await startJupyterServer();
  }, TEST_TIMEOUT);

  afterAll(async () => {
    await jupyter?.stop();
  }, TEST_TIMEOUT);

  async function openKernelSettings(): Promise<{ page: Page; section: Locator }> {
    const page = await suite.openPage();
    await page.getByRole('button', { name: '⚙ Settings', exact: true }).click();
    const section = page.getByRole('region', { name: 'Python kernels' });
    await section.waitFor({ timeout: UI_WAIT });
    return { page, section };
  }

  const storedPython = () => suite.ui.server.core.store.projects.get(projectId)?.python_path;

  it(
    'refuses a bad interpreter inline, uses the real python3 for the project, and goes back to the default',
    async () => {
      const { page, section } = await openKernelSettings();
      const name = path.basename(suite.ui.projectDir);
      const row = section.getByRole('listitem').filter({ hasText: suite.ui.projectDir });
      await row.waitFor({ timeout: UI_WAIT });
      expect(await row.getByText(name, { exact: true }).isVisible()).toBe(true);
      const inUse = row.locator('.python-in-use');
      const field = row.getByRole('textbox', { name: `Interpreter path for ${name}` });
      const save = row.getByRole('button', { name: `Save the interpreter path for ${name}` });
      const useDefault = row.getByRole('button', { name: `Use the default interpreter for ${name}` });
      expect(await useDefault.isDisabled()).toBe(true);

      // The default: python3 on PATH, looked up on request.
      await row.getByRole('button', { name: `Check the interpreter of ${name}` }).click();
      await inUse.getByText('python3 on the server’s PATH').waitFor({ timeout: UI_WAIT });
      expect(await inUse.getByText(/^Python 3\.\d+\.\d+$/).isVisible()).toBe(true);

      // A path that does not exist: the server's message, inline, and nothing saved.
      const missing = path.join(suite.ui.projectDir, 'no-such', 'python3');
      await field.fill(missing);
      await save.click();
      const alert = row.getByRole('alert');
      await alert.waitFor({ timeout: UI_WAIT });
      expect(await alert.textContent()).toContain(`${missing} does not exist on the machine running Cairn`);
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(storedPython()).toBeNull();

      // A file that is not Python: the resolver's reason.
      const script = path.join(suite.ui.projectDir, 'fake-python.sh');
      fs.writeFileSync(script, '#!/bin/sh\necho not-python\n', { mode: 0o755 });
      await field.fill(script);
      await save.click();
      await row
        .getByRole('alert')
        .getByText(/printed no Python version: not-python/)
        .waitFor({ timeout: UI_WAIT });
      expect(storedPython()).toBeNull();

      // The real python3: saved, then shown in use as the project's own.
      await field.fill(PYTHON);
      await save.click();
      await row.getByText('Saved.').waitFor({ timeout: UI_WAIT });
      await inUse.getByText('set for this project').waitFor({ timeout: UI_WAIT });
      expect(await inUse.getByText(PYTHON, { exact: true }).isVisible()).toBe(true);
      expect(await row.getByRole('alert').count()).toBe(0);
      expect(storedPython()).toBe(PYTHON);
      await screenshot(page, 'kernel-settings-project');

      // A project .venv, then Use default: the setting is cleared and the venv is what kernels get.
      const venvPython = path.join(suite.ui.projectDir, '.venv', 'bin', 'python3');
      fs.mkdirSync(path.dirname(venvPython), { recursive: true });
      fs.symlinkSync(fs.realpathSync(PYTHON), venvPython);
      await useDefault.click();
      await inUse.getByText('the project’s virtual environment').waitFor({ timeout: UI_WAIT });
      expect(await inUse.getByText(venvPython, { exact: true }).isVisible()).toBe(true);
      expect(await field.inputValue()).toBe('');
      expect(await useDefault.isDisabled()).toBe(true);
      expect(storedPython()).toBeNull();

      // Without the venv the default is python3 on PATH again.
      fs.rmSync(path.join(suite.ui.projectDir, '.venv'), { recursive: true });
      await row.getByRole('button', { name: `Check the interpreter of ${name}` }).click();
      await inUse.getByText('python3 on the server’s PATH').waitFor({ timeout: UI_WAIT });
    },
    TEST_TIMEOUT,
  );

  it(
    'refuses plain http to another host, tests a real Jupyter Server, saves its write-only token and removes it',
    async () => {
      const { page, section } = await openKernelSettings();
      const form = section.getByRole('form', { name: 'Kernel provider' });
      await form.waitFor({ timeout: UI_WAIT });
      expect(await form.getByRole('radio', { name: 'On the Cairn server' }).isChecked()).toBe(true);
      await form.getByRole('radio', { name: 'On a Jupyter Server' }).check();
      const url = form.getByLabel('Jupyter Server address');
      const token = form.getByLabel('Token', { exact: true });
      expect(await token.getAttribute('type')).toBe('password');
      await form.getByText('No token saved').waitFor();

      // Plain http to a host that is not this machine: the server refuses, and says why.
      await url.fill('http://example.com');
      await token.fill(TOKEN_TYPED);
      await form.getByRole('button', { name: 'Save provider' }).click();
      const alert = form.getByRole('alert');
      await alert.waitFor({ timeout: UI_WAIT });
      expect(await alert.textContent()).toContain(
        'Refusing to send the Jupyter token over plain http to example.com',
      );
      expect(await token.inputValue()).toBe('');
      expect(suite.ui.server.core.store.settings.get(KERNEL_PROVIDER_SETTING)).toBeNull();

      // A wrong token against the real server: its refusal is shown, the token itself is not.
      await url.fill(jupyter.baseUrl);
      await token.fill(TOKEN_TYPED);
      await form.getByRole('button', { name: 'Test connection' }).click();
      await form.getByRole('alert').waitFor({ timeout: UI_WAIT });
      expect(await page.content()).not.toContain(TOKEN_TYPED);

      // The right token: the server's version and kernelspecs.
      await token.fill(jupyter.token);
      await form.getByRole('button', { name: 'Test connection' }).click();
      const ok = form.getByText(/^Jupyter Server \S+ answered\. Kernels: .*python3/);
      await ok.waitFor({ timeout: UI_WAIT });
      expect(await form.getByRole('alert').count()).toBe(0);

      // Saved: the token goes to the keychain and is never shown again.
      await token.fill(jupyter.token);
      await form.getByRole('button', { name: 'Save provider' }).click();
      await form.getByText('Kernel provider saved.').waitFor({ timeout: UI_WAIT });
      await form.getByText('Token saved', { exact: true }).waitFor({ timeout: UI_WAIT });
      expect(await token.inputValue()).toBe('');
      expect(await page.content()).not.toContain(jupyter.token);
      const provider = await suite.ui.server.core.services.kernelProvider().get();
      expect(provider).toMatchObject({
        provider: 'jupyter',
        jupyter: { has_token: true },
        env_override: false,
      });
      expect(JSON.stringify(suite.ui.server.core.store.settings.get(KERNEL_PROVIDER_SETTING))).not.toContain(
        jupyter.token,
      );
      // While Jupyter is the provider, the per-project interpreters are said not to apply.
      await section.getByText(/these interpreters apply when kernels run on the Cairn server/).waitFor();
      await screenshot(page, 'kernel-settings-provider');

      // An empty token field keeps the saved token: testing again still works.
      await form.getByRole('button', { name: 'Test connection' }).click();
      await form.getByText(/^Jupyter Server \S+ answered\./).waitFor({ timeout: UI_WAIT });

      // The active Jupyter provider needs its token: removing it is refused, with the server's reason.
      await form.getByRole('button', { name: 'Remove token' }).click();
      await form
        .getByRole('alert')
        .getByText(/needs its token/)
        .waitFor({ timeout: UI_WAIT });
      expect((await suite.ui.server.core.services.kernelProvider().get())?.jupyter.has_token).toBe(true);

      // Back to the Cairn server, then the token can go.
      await form.getByRole('radio', { name: 'On the Cairn server' }).check();
      await form.getByRole('button', { name: 'Save provider' }).click();
      await form.getByText('Kernel provider saved.').waitFor({ timeout: UI_WAIT });
      expect((await suite.ui.server.core.services.kernelProvider().get())?.provider).toBe('local');
      await form.getByRole('radio', { name: 'On a Jupyter Server' }).check();
      // The address stays saved for a later switch back.
      const saved = (await suite.ui.server.core.services.kernelProvider().get())?.jupyter.url;
      expect(saved).toContain(new URL(jupyter.baseUrl).host);
      expect(await url.inputValue()).toBe(saved);
      await form.getByRole('button', { name: 'Remove token' }).click();
      await form.getByText('Token removed.').waitFor({ timeout: UI_WAIT });
      await form.getByText('No token saved').waitFor({ timeout: UI_WAIT });
      expect((await suite.ui.server.core.services.kernelProvider().get())?.jupyter.has_token).toBe(false);
    },
    TEST_TIMEOUT,
  );
});
