// @vitest-environment happy-dom
import '../support/zh-CN';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import { PermissionsSection } from '../../src/components/settings/PermissionsSection';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';
import { permissionServer, project, rule } from './permission-server';

function setup(options: Parameters<typeof permissionServer>[0] = {}, locale: Locale = 'en') {
  const server = permissionServer({
    projects: [project({ id: 'p1', name: 'repo-a' })],
    rules: [
      rule({ id: 'r1', tool: 'Bash', pattern: 'npm run test *', action: 'allow' }),
      rule({ id: 'r2', tool: 'Write', pattern: 'src/**', action: 'ask', project_id: 'p1' }),
      rule({ id: 'r3', tool: 'Bash', pattern: null, action: 'deny', project_id: 'p1', session_id: 's1' }),
    ],
    ...options,
  });
  const client = new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, server.fetch);
  render(
    <I18nProvider locale={locale}>
      <PermissionsSection client={client} />
    </I18nProvider>,
  );
  return server;
}

const rows = (listName = 'Rules') =>
  within(screen.getByRole('list', { name: listName }))
    .getAllByRole('listitem')
    .map((li) => [...li.querySelectorAll('.model-item-header > span')].map((s) => s.textContent));
const sent = (server: ReturnType<typeof permissionServer>, method: string) =>
  server.requests.filter((r) => r.method === method).map((r) => ({ path: r.path, body: r.body }));

afterEach(cleanup);

describe('Settings → Permissions: rules', () => {
  it('lists every rule with its tool, pattern, action and scope', async () => {
    setup();
    await screen.findByRole('list', { name: 'Rules' });
    expect(rows()).toEqual([
      ['Bash', 'npm run test *', 'Allow', 'Everywhere'],
      ['Write', 'src/**', 'Ask', 'Project repo-a'],
      ['Bash', 'any input', 'Deny', 'One session'],
    ]);
  });

  it('adds a rule for a project, and shows the server refusing a bad pattern next to the form', async () => {
    const server = setup({ rules: [] });
    await screen.findByText(/No rules yet/);
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    const form = screen.getByRole('form', { name: 'Add a rule' });
    expect((within(form).getByLabelText('Tool') as HTMLInputElement).value).toBe('Bash');
    fireEvent.input(within(form).getByLabelText('Pattern (optional)'), { target: { value: 'bad[' } });
    fireEvent.change(within(form).getByLabelText('Action'), { target: { value: 'deny' } });
    fireEvent.change(within(form).getByLabelText('Applies to'), { target: { value: 'p1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save rule' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'Could not save the rule: pattern "bad[" has an unclosed [.',
    );
    expect(within(form).getByLabelText('Pattern (optional)').getAttribute('aria-invalid')).toBe('true');

    fireEvent.input(within(form).getByLabelText('Pattern (optional)'), { target: { value: ' rm -rf * ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save rule' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Add a rule' })).toBeNull());
    expect(sent(server, 'POST').at(-1)).toEqual({
      path: '/api/permission-rules',
      body: { tool: 'Bash', pattern: 'rm -rf *', action: 'deny', project_id: 'p1' },
    });
    expect(rows()).toEqual([['Bash', 'rm -rf *', 'Deny', 'Project repo-a']]);
  });

  it('adds a global rule for any input when the pattern is left empty', async () => {
    const server = setup({ rules: [] });
    await screen.findByText(/No rules yet/);
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    const form = screen.getByRole('form', { name: 'Add a rule' });
    fireEvent.input(within(form).getByLabelText('Tool'), { target: { value: 'Read' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save rule' }));
    await waitFor(() => expect(rows()).toEqual([['Read', 'any input', 'Allow', 'Everywhere']]));
    expect(sent(server, 'POST')[0]?.body).toEqual({
      tool: 'Read',
      pattern: null,
      action: 'allow',
      project_id: null,
    });
  });

  it('edits a rule inline (its scope stays) and deletes one after asking', async () => {
    const server = setup();
    await screen.findByRole('list', { name: 'Rules' });
    fireEvent.click(screen.getByRole('button', { name: 'Edit the rule Write src/**' }));
    const form = screen.getByRole('form', { name: 'Edit the rule Write src/**' });
    expect(within(form).queryByLabelText('Applies to')).toBeNull();
    expect((within(form).getByLabelText('Pattern (optional)') as HTMLInputElement).value).toBe('src/**');
    fireEvent.input(within(form).getByLabelText('Pattern (optional)'), { target: { value: 'docs/**' } });
    fireEvent.change(within(form).getByLabelText('Action'), { target: { value: 'allow' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save rule' }));
    await waitFor(() => expect(rows()[1]).toEqual(['Write', 'docs/**', 'Allow', 'Project repo-a']));
    expect(sent(server, 'PATCH')).toEqual([
      { path: '/api/permission-rules/r2', body: { tool: 'Write', pattern: 'docs/**', action: 'allow' } },
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Delete the rule Bash npm run test *' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('Delete the rule Bash npm run test *?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(sent(server, 'DELETE')).toEqual([{ path: '/api/permission-rules/r1', body: undefined }]);
  });
});

describe('Settings → Permissions: test a call', () => {
  it('sends the command (or a path) with the project and mode, and shows the decision, its rule and why', async () => {
    const server = setup({
      decision: {
        decision: 'allow',
        rule_id: 'r1',
        reason: 'Rule r1 allows npm run test *.',
        suggestion: { tool: 'Bash', pattern: 'npm run test *' },
      },
    });
    const box = await screen.findByRole('form', { name: 'Test a call' });
    fireEvent.input(within(box).getByLabelText('Command'), { target: { value: 'npm run test -- --watch' } });
    fireEvent.change(within(box).getByLabelText('Project'), { target: { value: 'p1' } });
    fireEvent.change(within(box).getByLabelText('Approval mode when no rule decides'), {
      target: { value: 'auto_edits' },
    });
    fireEvent.click(within(box).getByRole('button', { name: 'Test' }));
    const result = await within(box).findByRole('status');
    expect([...result.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      'Decision: Allow',
      'Decided by the rule Bash npm run test *.',
      'Reason: Rule r1 allows npm run test *.',
    ]);
    expect(sent(server, 'POST')).toEqual([
      {
        path: '/api/permission-rules/test',
        body: {
          tool: 'Bash',
          input: { command: 'npm run test -- --watch' },
          project_id: 'p1',
          approval: 'auto_edits',
        },
      },
    ]);

    fireEvent.change(within(box).getByLabelText('Tool'), { target: { value: 'Write' } });
    fireEvent.input(within(box).getByLabelText('Path'), { target: { value: 'src/a.ts' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Test' }));
    await waitFor(() => expect(sent(server, 'POST')).toHaveLength(2));
    expect(sent(server, 'POST')[1]?.body).toMatchObject({ tool: 'Write', input: { path: 'src/a.ts' } });
  });

  it('says when the mode decided', async () => {
    setup();
    const box = await screen.findByRole('form', { name: 'Test a call' });
    fireEvent.input(within(box).getByLabelText('Command'), { target: { value: 'make' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Test' }));
    expect((await within(box).findByRole('status')).textContent).toContain(
      'No rule matched: the approval mode decided.',
    );
  });
});

describe("Settings → Permissions: each project's sandbox", () => {
  it('turns the sandbox and its network on and off', async () => {
    const server = setup();
    const sandbox = await screen.findByRole('checkbox', { name: 'Run repo-a in the sandbox' });
    const network = screen.getByRole('checkbox', { name: 'Allow network access in repo-a’s sandbox' });
    expect((sandbox as HTMLInputElement).checked).toBe(false);
    expect((network as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(sandbox);
    await waitFor(() => expect((network as HTMLInputElement).disabled).toBe(false));
    expect((sandbox as HTMLInputElement).checked).toBe(true);
    fireEvent.click(network);
    await waitFor(() => expect((network as HTMLInputElement).checked).toBe(false));
    expect(sent(server, 'PATCH')).toEqual([
      { path: '/api/projects/p1', body: { sandbox: 'on' } },
      { path: '/api/projects/p1', body: { sandbox_network: 'off' } },
    ]);
  });

  it('says clearly when the sandbox cannot run here, and leaves it off', async () => {
    setup({ sandboxUnavailable: 'bubblewrap is not installed: install it with apt-get install bubblewrap.' });
    const sandbox = await screen.findByRole('checkbox', { name: 'Run repo-a in the sandbox' });
    fireEvent.click(sandbox);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The sandbox cannot run on this machine: bubblewrap is not installed: install it with apt-get install bubblewrap.',
    );
    expect((sandbox as HTMLInputElement).checked).toBe(false);
  });
});

describe('Settings → Permissions in Chinese', () => {
  it('speaks Chinese', async () => {
    setup({}, 'zh-CN');
    await screen.findByRole('list', { name: '规则' });
    expect(rows('规则')[1]).toEqual(['Write', 'src/**', '询问', '项目 repo-a']);
    expect(screen.getByRole('button', { name: '添加规则' })).toBeTruthy();
    expect(screen.getByRole('form', { name: '测试一次调用' })).toBeTruthy();
  });
});
