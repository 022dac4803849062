// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in plain strings are the data under test.
import { describe, expect, it } from 'vitest';
import { formatCommandLine, parseCommandLine, quoteWord } from '../../src/mcp/command-line';
import { McpConfigError } from '../../src/mcp/mcp-config-error';

const parse = (line: string): string[] => {
  const { program, args } = parseCommandLine(line);
  return [program, ...args];
};

describe('parseCommandLine', () => {
  it('splits on whitespace of any kind and length', () => {
    expect(parse('npx -y  @modelcontextprotocol/server-everything')).toEqual([
      'npx',
      '-y',
      '@modelcontextprotocol/server-everything',
    ]);
    expect(parse('  node\tserver.js   --port 3000 \r\n')).toEqual(['node', 'server.js', '--port', '3000']);
  });

  it('keeps single-quoted text literal, backslashes and dollars included', () => {
    expect(parse(`echo 'a b' 'C:\\dir\\' '$HOME' 'say "hi"'`)).toEqual([
      'echo',
      'a b',
      'C:\\dir\\',
      '$HOME',
      'say "hi"',
    ]);
  });

  it('in double quotes, a backslash escapes only " \\ $ and backtick, like sh', () => {
    expect(parse('p "a \\"b\\" \\\\ \\$X \\` \\n \\a"')).toEqual(['p', 'a "b" \\ $X ` \\n \\a']);
    expect(parse('p "C:\\Program Files\\x"')).toEqual(['p', 'C:\\Program Files\\x']);
    expect(parse('p "line\\\ncontinued"')).toEqual(['p', 'linecontinued']);
  });

  it('outside quotes, a backslash escapes any next character; backslash-newline joins lines', () => {
    expect(parse('p a\\ b \\" \\\' \\\\ \\$')).toEqual(['p', 'a b', '"', "'", '\\', '$']);
    expect(parse('p one \\\n two')).toEqual(['p', 'one', 'two']);
  });

  it('joins adjacent quoted and unquoted parts into one word', () => {
    expect(parse(`p --name="a b"'c d'e`)).toEqual(['p', '--name=a bc de']);
  });

  it('makes empty words from empty quotes', () => {
    expect(parse(`p '' "" x''`)).toEqual(['p', '', '', 'x']);
  });

  it('expands nothing and treats shell operators as ordinary characters (there is no shell)', () => {
    expect(parse('p $HOME ~ *.js `id` $(id) a|b ; && > out # c')).toEqual([
      'p',
      '$HOME',
      '~',
      '*.js',
      '`id`',
      '$(id)',
      'a|b',
      ';',
      '&&',
      '>',
      'out',
      '#',
      'c',
    ]);
  });

  it('keeps unicode as it is', () => {
    expect(parse('p \'привет мир\' 日本 "🙂 ok"')).toEqual(['p', 'привет мир', '日本', '🙂 ok']);
  });

  it.each([
    ["p 'abc", /single quote at character 3 that is never closed/],
    ['p "a\\"', /double quote at character 3 that is never closed/],
    ['p x\\', /ends with a backslash at character 4/],
    ['', /empty/],
    [' \t\n', /empty/],
    ["'' arg", /empty program name/],
    ['node server.js\n--port 3000', /line break at character 15: a command is one line/],
    ['node server.js\r\nsecond', /line break at character 15/],
  ])('refuses %j with a message naming the problem', (line, message) => {
    let error: unknown;
    try {
      parseCommandLine(line);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(McpConfigError);
    expect((error as McpConfigError).message).toMatch(message);
    expect((error as McpConfigError).code).toBe('bad_request');
  });
});

describe('formatCommandLine', () => {
  it('leaves plain words alone and single-quotes the rest', () => {
    expect(formatCommandLine('npx', ['-y', '@scope/pkg@1.2.3', 'a=b,c:d%'])).toBe(
      'npx -y @scope/pkg@1.2.3 a=b,c:d%',
    );
    expect(formatCommandLine('/usr/bin/my tool', ['', "it's", 'a b'])).toBe(
      `'/usr/bin/my tool' '' 'it'\\''s' 'a b'`,
    );
    expect(quoteWord('${input:token}')).toBe(`'\${input:token}'`);
  });

  it('refuses an empty program', () => {
    expect(() => formatCommandLine('', ['x'])).toThrow(McpConfigError);
  });

  const tricky = [
    'plain',
    '',
    ' ',
    'two words',
    "it's",
    "''",
    '"',
    '""',
    '\\',
    'C:\\Program Files\\node\\',
    'a\\"b',
    '$HOME',
    '${env:X}',
    '`id`',
    'a\nb',
    '\n',
    '\t',
    'trailing\\',
    'mixed \'single\' and "double" \\ $ `',
    'ünïcödé 🙂 日本',
    '#not-a-comment',
    '~',
    '*',
    '|;&<>()',
    '--flag=value with spaces',
  ];

  it.each(tricky.map((w) => [w]))('round-trips %j as program and as argument', (word) => {
    if (word !== '')
      expect(parseCommandLine(formatCommandLine(word, [word]))).toEqual({ program: word, args: [word] });
    expect(parseCommandLine(formatCommandLine('p', [word, word, '']))).toEqual({
      program: 'p',
      args: [word, word, ''],
    });
  });

  it('round-trips random words drawn from quotes, backslashes, whitespace and unicode', () => {
    // A fixed seed keeps failures reproducible.
    let seed = 12345;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const alphabet = [
      'a',
      'Z',
      '0',
      ' ',
      '\t',
      '\n',
      "'",
      '"',
      '\\',
      '$',
      '`',
      '{',
      '}',
      '#',
      '|',
      '=',
      'é',
      '🙂',
      '-',
    ];
    for (let round = 0; round < 2_000; round++) {
      const words = Array.from({ length: 1 + random(4) }, () =>
        Array.from({ length: random(8) }, () => alphabet[random(alphabet.length)]!).join(''),
      );
      const program = `p${words[0]}`;
      const args = words.slice(1);
      expect(parseCommandLine(formatCommandLine(program, args))).toEqual({ program, args });
    }
  });
});
