// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in plain strings are the data under test.
import { describe, expect, it } from 'vitest';
import {
  describePlaceholder,
  findPlaceholders,
  substitutePlaceholders,
  wholeEnvReference,
  wholePlaceholder,
} from '../../src/mcp/import/placeholders';

describe('placeholders', () => {
  it('finds every ${…} with its id as written, and a ${VAR:-default} default', () => {
    expect(
      findPlaceholders('a ${env:HOME}/${input:api-key} ${workspaceFolder} ${VAR:-x y} ${userHome} $PLAIN'),
    ).toEqual([
      { id: 'env:HOME', default: null },
      { id: 'input:api-key', default: null },
      { id: 'workspaceFolder', default: null },
      { id: 'VAR', default: 'x y' },
      { id: 'userHome', default: null },
    ]);
    expect(findPlaceholders('${A:-}')).toEqual([{ id: 'A', default: '' }]);
    expect(findPlaceholders('no placeholders, not even ${} or $HOME')).toEqual([]);
  });

  it('recognises a whole-value placeholder only when it is the entire text', () => {
    expect(wholePlaceholder('${input:t}')).toEqual({ id: 'input:t', default: null });
    expect(wholePlaceholder('Bearer ${input:t}')).toBeNull();
    expect(wholePlaceholder('${a}${b}')).toBeNull();
  });

  it("maps a whole value to an env reference only in the file's own syntax", () => {
    expect(wholeEnvReference('${env:GITHUB_TOKEN}', 'env-prefix')).toBe('GITHUB_TOKEN');
    expect(wholeEnvReference('${GITHUB_TOKEN}', 'env-prefix')).toBeNull();
    expect(wholeEnvReference('${GITHUB_TOKEN}', 'bare')).toBe('GITHUB_TOKEN');
    expect(wholeEnvReference('${env:GITHUB_TOKEN}', 'bare')).toBeNull();
    expect(wholeEnvReference('${GITHUB_TOKEN}', 'none')).toBeNull();
    // A default, an embedded reference or a name Cairn cannot use are questions, not mappings.
    expect(wholeEnvReference('${TOKEN:-x}', 'bare')).toBeNull();
    expect(wholeEnvReference('x${TOKEN}', 'bare')).toBeNull();
    expect(wholeEnvReference('${env:ProgramFiles(x86)}', 'env-prefix')).toBeNull();
  });

  it('substitutes literal answers, the same answer wherever its id appears, and reports the rest', () => {
    const answers: Record<string, string> = { 'env:HOME': '/home/a', VAR: 'v' };
    expect(substitutePlaceholders('${env:HOME}/x:${VAR:-d}:${VAR}:${other}', (id) => answers[id])).toEqual({
      text: '/home/a/x:v:v:${other}',
      missing: ['other'],
    });
    // Answers are inserted as they are: no second round of substitution.
    expect(substitutePlaceholders('${a}', () => '${b}').text).toBe('${b}');
  });

  it('describes placeholders the file does not describe', () => {
    expect(describePlaceholder('env:HOME')).toMatch(/environment variable HOME/);
    expect(describePlaceholder('workspaceFolder')).toMatch(/project folder/);
    expect(describePlaceholder('input:x')).toMatch(/"x"/);
  });
});
