// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in plain strings are the data under test.
import { describe, expect, it } from 'vitest';
import { confirmImport, previewImport } from '../../src/mcp/import';
import { fixture } from './import-fixture';

const file = fixture('claude-code-mcp.json');

describe('import from Claude Code', () => {
  const preview = previewImport('claude_code', file.text, file.path, []);
  const byName = Object.fromEntries(preview.candidates.map((c) => [c.name, c]));

  it('maps a whole ${VAR} to an env reference, bearer token included', () => {
    expect(byName.airtable!.server.env!.AIRTABLE_API_KEY).toEqual({ env: 'AIRTABLE_API_KEY' });
    expect(byName['api-server']!.server.bearer_token).toEqual({ env: 'API_KEY' });
  });

  it('asks for ${VAR:-default} (offering the default) and for embedded ${VAR}', () => {
    expect(byName.airtable!.questions).toEqual(['AIRTABLE_BASE']);
    expect(byName['api-server']!.questions).toEqual(['API_BASE_URL', 'TEAM_ID']);
    expect(preview.questions).toEqual([
      expect.objectContaining({ id: 'API_BASE_URL', default: 'https://api.example.com', password: false }),
      expect.objectContaining({ id: 'TEAM_ID', default: null }),
      expect.objectContaining({ id: 'AIRTABLE_BASE', default: 'appDefault' }),
    ]);
  });

  it('applies answers: text in the URL and headers, an env reference for a whole value', () => {
    const { servers, secrets } = confirmImport(preview, ['api-server', 'airtable'], {
      API_BASE_URL: 'https://api.example.com',
      TEAM_ID: '42',
      AIRTABLE_BASE: { env: 'AIRTABLE_BASE' },
    });
    expect(servers[0]).toMatchObject({
      url: 'https://api.example.com/mcp',
      headers: { 'X-Team': 'team-42' },
      bearer_token: { env: 'API_KEY' },
    });
    expect(servers[1]!.env).toEqual({
      AIRTABLE_API_KEY: { env: 'AIRTABLE_API_KEY' },
      AIRTABLE_BASE: { env: 'AIRTABLE_BASE' },
    });
    expect(secrets).toEqual([]);
  });

  it('refuses an env reference or a secret where the placeholder is only part of a value', () => {
    expect(() =>
      confirmImport(preview, ['api-server'], { API_BASE_URL: { env: 'BASE' }, TEAM_ID: '1' }),
    ).toThrow(/API_BASE_URL.*environment reference.*part of the URL.*give a literal/);
    expect(() =>
      confirmImport(preview, ['api-server'], { API_BASE_URL: 'https://a.example', TEAM_ID: { secret: 's' } }),
    ).toThrow(/TEAM_ID.*a secret.*the X-Team header.*give a literal/);
  });
});
