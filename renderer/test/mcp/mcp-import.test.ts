import { describe, expect, it } from 'vitest';
import { McpImportPreview, McpImportRequest } from '../../../sidecar/src/protocol';
import {
  confirmOf,
  initialAnswers,
  initialChoice,
  neededQuestions,
} from '../../src/components/mcp/mcp-import';

// Placeholders as the other apps write them, in plain strings on purpose.
const TOKEN_PLACEHOLDER = ['$', '{input:token}'].join('');
const FOLDER_PLACEHOLDER = ['$', '{workspaceFolder}'].join('');

const preview = McpImportPreview.parse({
  path: '/home/u/.vscode/mcp.json',
  questions: [
    { id: 'input:token', description: 'API token', password: true, default: null },
    { id: 'env:REGION', description: null, password: false, default: 'eu' },
    { id: 'workspaceFolder', description: null, password: false, default: null },
  ],
  candidates: [
    {
      name: 'api',
      server: { name: 'api', transport: 'stdio', command: 'api-server', env: { TOKEN: TOKEN_PLACEHOLDER } },
      questions: ['input:token', 'env:REGION'],
      warnings: [],
      exists: false,
    },
    {
      name: 'files',
      server: { name: 'files', transport: 'stdio', command: `fs ${FOLDER_PLACEHOLDER}` },
      questions: ['workspaceFolder'],
      warnings: ['an unknown field "x" was left out'],
      exists: true,
    },
  ],
});

describe('MCP import choices and answers', () => {
  it('starts with new servers chosen, password inputs as secrets and defaults filled in', () => {
    expect(initialChoice(preview)).toEqual(['api']);
    expect(initialAnswers(preview)).toEqual({
      'input:token': { kind: 'secret', value: '' },
      'env:REGION': { kind: 'text', value: 'eu' },
      workspaceFolder: { kind: 'text', value: '' },
    });
  });

  it('asks only what the chosen servers need', () => {
    expect(neededQuestions(preview, ['api'])).toEqual(['input:token', 'env:REGION']);
    expect(neededQuestions(preview, ['files'])).toEqual(['workspaceFolder']);
    expect(neededQuestions(preview, [])).toEqual([]);
  });

  it('refuses to confirm with nothing chosen or a needed placeholder unanswered', () => {
    expect(confirmOf(preview, [], {})).toEqual({ ok: false, reason: 'none_chosen' });
    expect(confirmOf(preview, ['api'], initialAnswers(preview))).toEqual({
      ok: false,
      reason: 'unanswered',
      questions: ['input:token'],
    });
    expect(
      confirmOf(preview, ['files'], { workspaceFolder: { kind: 'env', value: 'not a name' } }),
    ).toMatchObject({ ok: false, questions: ['workspaceFolder'] });
  });

  it('sends the chosen servers with their answers as literal, env reference or secret', () => {
    const result = confirmOf(preview, ['api', 'files'], {
      'input:token': { kind: 'secret', value: 'tok' },
      'env:REGION': { kind: 'env', value: 'AWS_REGION' },
      workspaceFolder: { kind: 'text', value: ' /work/p ' },
    });
    expect(result).toEqual({
      ok: true,
      confirm: {
        servers: ['api', 'files'],
        answers: {
          'input:token': { secret: 'tok' },
          'env:REGION': { env: 'AWS_REGION' },
          workspaceFolder: '/work/p',
        },
      },
    });
    if (!result.ok) return;
    expect(McpImportRequest.safeParse({ source: 'vscode', confirm: result.confirm }).success).toBe(true);
  });

  it('leaves out answers to questions of servers not chosen', () => {
    const result = confirmOf(preview, ['files'], {
      'input:token': { kind: 'secret', value: 'tok' },
      workspaceFolder: { kind: 'text', value: '/p' },
    });
    expect(result).toEqual({ ok: true, confirm: { servers: ['files'], answers: { workspaceFolder: '/p' } } });
  });
});
