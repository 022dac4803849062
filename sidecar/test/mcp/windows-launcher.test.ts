import { describe, expect, it } from 'vitest';
import { McpConfigError } from '../../src/mcp/mcp-config-error';
import { quoteWindowsArgument, resolveWindowsProgram, windowsLauncher } from '../../src/mcp/windows-launcher';

// A small model of how the line is read on Windows, to check the quoting against rather than our own strings:
// cmd.exe /s /c strips the outer quotes, expands %VAR% and reads carets and quotes (phase 1 and 2); the batch
// file's `%*` is read by cmd once more; the program then splits its command line with CommandLineToArgvW.

const DEFINED_VARS = new Set(['PATH', 'USERNAME', 'X']);

/**
 * cmd.exe's reading of a line: the text left after carets, or a failure if an operator or a %VAR% acts.
 * Text a batch file gets from `%*` is not expanded again (phase 1 does not rescan), hence `expand`.
 */
function cmdRead(line: string, expand = true): string {
  for (const m of expand ? line.matchAll(/%([^%]+)%/g) : []) {
    if (DEFINED_VARS.has(m[1]!.toUpperCase())) throw new Error(`cmd would expand %${m[1]}%`);
  }
  let out = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === '^') {
      out += line[i + 1] ?? '';
      i++;
      continue;
    } else if (!quoted && /[&|<>]/.test(c)) throw new Error(`cmd would act on ${c} at ${i} in ${line}`);
    out += c;
  }
  return out;
}

/** CommandLineToArgvW (the post-2008 rules, enough for the lines quoteWindowsArgument makes). */
function argvRead(line: string): string[] {
  const args: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (i >= line.length) break;
    let arg = '';
    let quoted = false;
    while (i < line.length && (quoted || (line[i] !== ' ' && line[i] !== '\t'))) {
      let backslashes = 0;
      while (line[i] === '\\') {
        backslashes++;
        i++;
      }
      if (line[i] === '"') {
        arg += '\\'.repeat(Math.floor(backslashes / 2));
        if (backslashes % 2 === 1) arg += '"';
        else quoted = !quoted;
        i++;
      } else {
        arg += '\\'.repeat(backslashes);
        if (i < line.length && (quoted || (line[i] !== ' ' && line[i] !== '\t'))) arg += line[i];
        if (i < line.length) i++;
      }
    }
    args.push(arg);
  }
  return args;
}

const PATH_DIRS = 'C:\\Windows\\System32;"C:\\Program Files\\nodejs";C:\\Users\\me\\AppData\\Roaming\\npm';
const ENV = { Path: PATH_DIRS, PATHEXT: '.COM;.EXE;.BAT;.CMD', ComSpec: 'C:\\WINDOWS\\system32\\cmd.exe' };
const FILES = new Set(
  [
    'C:\\Program Files\\nodejs\\node.exe',
    'C:\\Program Files\\nodejs\\npx.CMD',
    'C:\\Users\\me\\AppData\\Roaming\\npm\\uvx.exe',
    'C:\\Users\\me\\AppData\\Roaming\\npm\\uvx.cmd',
    'C:\\tools\\run server.bat',
    'C:\\work\\proj\\scripts\\start.CMD',
    'C:\\work\\proj\\npx.cmd',
  ].map((f) => f.toLowerCase()),
);
const exists = (file: string): boolean => FILES.has(file.toLowerCase());

const NASTY = [
  'plain',
  'two words',
  '',
  'a&b',
  'a && calc',
  '%PATH%',
  '%x%',
  '100%',
  '^',
  'a^b^^',
  '!USERNAME!',
  '(x)',
  '<in >out 2>&1',
  'a|b',
  'C:\\dir with space\\',
  'C:\\trailing\\\\',
  '\\\\server\\share',
  'ünïcödé 🙂',
  '--json={x:1}',
  "it's",
  '\t tab',
];

describe('resolveWindowsProgram', () => {
  it('looks a bare name up in PATH with PATHEXT, in order, case-insensitively', () => {
    expect(resolveWindowsProgram('npx', ENV, exists)).toBe('C:\\Program Files\\nodejs\\npx.CMD');
    expect(resolveWindowsProgram('node', ENV, exists)).toBe('C:\\Program Files\\nodejs\\node.EXE');
    // .EXE comes before .CMD in PATHEXT. The case is PATHEXT's: Windows file names are case-insensitive.
    expect(resolveWindowsProgram('uvx', ENV, exists)).toBe('C:\\Users\\me\\AppData\\Roaming\\npm\\uvx.EXE');
    expect(resolveWindowsProgram('uvx.cmd', ENV, exists)).toBe(
      'C:\\Users\\me\\AppData\\Roaming\\npm\\uvx.cmd',
    );
    expect(resolveWindowsProgram('missing', ENV, exists)).toBeNull();
  });

  it('follows the given PATHEXT, and a default when there is none', () => {
    expect(resolveWindowsProgram('npx', { ...ENV, PATHEXT: '.EXE' }, exists)).toBeNull();
    expect(resolveWindowsProgram('npx', { PATH: PATH_DIRS }, exists)).toBe(
      'C:\\Program Files\\nodejs\\npx.CMD',
    );
  });

  it('takes a name with a directory as a path, relative ones from cwd, and never searches cwd for bare names', () => {
    expect(resolveWindowsProgram('C:\\tools\\run server.bat', ENV, exists)).toBe('C:\\tools\\run server.bat');
    expect(resolveWindowsProgram('C:/tools/run server', ENV, exists)).toBe('C:\\tools\\run server.BAT');
    expect(resolveWindowsProgram('scripts\\start', ENV, exists, 'C:\\work\\proj')).toBe(
      'C:\\work\\proj\\scripts\\start.CMD',
    );
    // C:\work\proj\npx.cmd exists, but a bare name is looked up in PATH only.
    expect(
      resolveWindowsProgram('npx', { PATHEXT: '.CMD', Path: 'C:\\elsewhere' }, exists, 'C:\\work\\proj'),
    ).toBeNull();
  });
});

describe('windowsLauncher', () => {
  it('starts an .exe directly, resolved, with the arguments untouched', () => {
    expect(windowsLauncher('node', ['server.js', 'a&b'], ENV, exists)).toEqual({
      file: 'C:\\Program Files\\nodejs\\node.EXE',
      args: ['server.js', 'a&b'],
      windowsVerbatimArguments: false,
    });
  });

  it('leaves a program it cannot find as it is, for spawn to report', () => {
    expect(windowsLauncher('nothere', ['x'], ENV, exists)).toEqual({
      file: 'nothere',
      args: ['x'],
      windowsVerbatimArguments: false,
    });
  });

  it('runs a .cmd through ComSpec /d /s /c with one verbatim line', () => {
    const launch = windowsLauncher(
      'npx',
      ['-y', '@modelcontextprotocol/server-filesystem', 'C:\\My Files'],
      ENV,
      exists,
    );
    expect(launch.file).toBe('C:\\WINDOWS\\system32\\cmd.exe');
    expect(launch.windowsVerbatimArguments).toBe(true);
    expect(launch.args.slice(0, 3)).toEqual(['/d', '/s', '/c']);
    expect(launch.args[3]).toBe(
      '"^"C:\\Program Files\\nodejs\\npx.CMD^" ^"-y^" ^"@modelcontextprotocol/server-filesystem^" ^"C:\\My Files^""',
    );
  });

  it('falls back to C:\\Windows\\System32\\cmd.exe without ComSpec', () => {
    const launch = windowsLauncher('npx', [], { PATH: PATH_DIRS }, exists);
    expect(launch.file).toBe('C:\\Windows\\System32\\cmd.exe');
  });

  it.each(NASTY.map((a) => [a]))(
    'passes %j to the batch file and its program as one literal argument',
    (arg) => {
      const launch = windowsLauncher('npx', ['-y', arg, 'last'], ENV, exists);
      const line = launch.args[3]!;
      expect(line.startsWith('"') && line.endsWith('"')).toBe(true);
      // cmd /s strips the outer quotes, then reads the line once.
      const batchLine = cmdRead(line.slice(1, -1));
      expect(argvRead(batchLine)).toEqual(['C:\\Program Files\\nodejs\\npx.CMD', '-y', arg, 'last']);
      // A launcher like npx.cmd reads its arguments again (`node npx-cli.js %*`): still nothing acts.
      const rest = batchLine.slice(batchLine.indexOf('npx.CMD"') + 'npx.CMD"'.length);
      expect(argvRead(cmdRead(`node npx-cli.js${rest}`, false))).toEqual([
        'node',
        'npx-cli.js',
        '-y',
        arg,
        'last',
      ]);
    },
  );

  it('quotes a batch file path with spaces and metacharacters', () => {
    const launch = windowsLauncher('C:\\tools\\run server.bat', ['x'], ENV, exists);
    expect(argvRead(cmdRead(launch.args[3]!.slice(1, -1)))).toEqual(['C:\\tools\\run server.bat', 'x']);
  });

  it.each([['say "hi"'], ['a\nb'], ['a\r'], ['nul\0']])(
    'refuses %j for a batch file, where it cannot be passed safely, and says what to do',
    (arg) => {
      expect(() => windowsLauncher('npx', ['-y', arg], ENV, exists)).toThrow(McpConfigError);
      expect(() => windowsLauncher('npx', ['-y', arg], ENV, exists)).toThrow(
        /Argument 2 of npx\.CMD.*directly/,
      );
      // An .exe takes them: Node quotes them itself.
      expect(windowsLauncher('node', [arg], ENV, exists).args).toEqual([arg]);
    },
  );
});

describe('quoteWindowsArgument', () => {
  it.each([
    ['plain'],
    [''],
    ['a b'],
    ['a"b'],
    ['a\\"b'],
    ['a\\\\"b'],
    ['end\\'],
    ['end\\\\'],
    ['\\\\unc\\x'],
    ['"'],
  ])('round-trips %j through CommandLineToArgvW', (arg) => {
    expect(argvRead(`x ${quoteWindowsArgument(arg)} y`)).toEqual(['x', arg, 'y']);
  });

  it('doubles backslashes only before a quote or the end', () => {
    expect(quoteWindowsArgument('C:\\a b\\')).toBe('"C:\\a b\\\\"');
    expect(quoteWindowsArgument('a\\"b')).toBe('"a\\\\\\"b"');
    expect(quoteWindowsArgument('a\\b')).toBe('"a\\b"');
  });
});
