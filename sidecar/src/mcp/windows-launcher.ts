import path from 'node:path';
import { McpConfigError } from './mcp-config-error';

/** How to spawn a stdio server on Windows: a file Node can start directly, or cmd.exe running a batch file. */
export interface WindowsLaunch {
  file: string;
  args: string[];
  /** True when `args` are already quoted for cmd.exe (the batch-file case): Node must pass them verbatim. */
  windowsVerbatimArguments: boolean;
}

const win = path.win32;
const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';
const BATCH = /\.(cmd|bat)$/i;
/** Characters cmd.exe treats specially outside quotes; a caret makes each literal. */
const CMD_META = /[()%!^"<>&|]/g;

/** Windows environment names are case-insensitive (`Path`, `PATH`, `ComSpec`). */
function envValue(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const key = Object.keys(env).find((k) => k.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : env[key];
}

/**
 * The file Windows would run for `program`: a name with a directory is taken as a path (relative to `cwd`);
 * a bare name is looked up in PATH only. Unlike cmd.exe we never look in the working directory first: it is
 * the session's project folder, and a project must not be able to plant its own `npx.cmd`.
 */
export function resolveWindowsProgram(
  program: string,
  env: Readonly<Record<string, string | undefined>>,
  fileExists: (file: string) => boolean,
  cwd?: string,
): string | null {
  const extensions = (envValue(env, 'PATHEXT') ?? DEFAULT_PATHEXT)
    .split(';')
    .map((e) => e.trim())
    .filter((e) => e.startsWith('.'));
  // A name with an extension is tried as it is first (`npx.cmd`, `node.exe`), then with each PATHEXT one.
  const names = (base: string): string[] => [
    ...(win.extname(base) === '' ? [] : [base]),
    ...extensions.map((ext) => base + ext),
  ];
  const hasDirectory = /[\\/]/.test(program) || win.isAbsolute(program);
  const dirs = hasDirectory
    ? [cwd === undefined ? '' : cwd]
    : (envValue(env, 'PATH') ?? '')
        .split(';')
        .map((d) => d.trim().replace(/^"(.*)"$/, '$1'))
        .filter((d) => d !== '');
  for (const dir of dirs) {
    for (const name of names(program)) {
      const candidate = dir === '' ? win.normalize(name) : win.resolve(dir, name);
      if (fileExists(candidate)) return candidate;
    }
  }
  return null;
}

/**
 * One argument as CommandLineToArgvW (and so the C runtime and Node) reads it back: in double quotes,
 * backslashes doubled only where they precede a quote or the closing quote, and quotes escaped.
 */
export function quoteWindowsArgument(arg: string): string {
  let out = '"';
  let backslashes = 0;
  for (const c of arg) {
    if (c === '\\') {
      backslashes++;
      continue;
    }
    if (c === '"') out += `${'\\'.repeat(backslashes * 2)}\\"`;
    else out += `${'\\'.repeat(backslashes)}${c}`;
    backslashes = 0;
  }
  return `${out}${'\\'.repeat(backslashes * 2)}"`;
}

/** One argument quoted for CommandLineToArgvW and then made literal for cmd.exe with carets. */
export function quoteCmdArgument(arg: string): string {
  return quoteWindowsArgument(arg).replace(CMD_META, '^$&');
}

/**
 * How to start `program args` without a shell on Windows. Node refuses to spawn .cmd/.bat files directly
 * (CVE-2024-27980), so those run as `cmd.exe /d /s /c "<line>"`: /d skips AutoRun commands, /s makes cmd strip
 * just the outer quotes. Every word is quoted and every cmd metacharacter escaped with ^, so the batch file
 * gets each argument as one literal word (%PATH% is not expanded, & does not start a command).
 *
 * Batch launchers such as npx.cmd re-read their arguments (`%*`) a second time, where a double quote inside an
 * argument would end the quoting and expose what follows; and cmd.exe cannot carry a line break at all. So
 * arguments with `"`, CR, LF or NUL are refused for batch files, with a way around.
 */
export function windowsLauncher(
  program: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  fileExists: (file: string) => boolean,
  cwd?: string,
): WindowsLaunch {
  const resolved = resolveWindowsProgram(program, env, fileExists, cwd);
  if (resolved === null || !BATCH.test(resolved)) {
    return { file: resolved ?? program, args: [...args], windowsVerbatimArguments: false };
  }
  for (const [index, arg] of args.entries()) {
    const bad = /["\r\n\0]/.exec(arg);
    if (bad !== null) {
      const what = bad[0] === '"' ? 'a double quote' : 'a line break or NUL character';
      throw new McpConfigError(
        `Argument ${index + 1} of ${win.basename(resolved)} contains ${what}, which cannot be passed safely through ` +
          'a Windows batch file. Start the program the batch file runs directly instead (for npx: node with the ' +
          "package's script), or pass the value in an environment variable.",
      );
    }
  }
  const line = [resolved, ...args].map(quoteCmdArgument).join(' ');
  const comSpec = envValue(env, 'ComSpec');
  return {
    file: comSpec !== undefined && comSpec !== '' ? comSpec : 'C:\\Windows\\System32\\cmd.exe',
    args: ['/d', '/s', '/c', `"${line}"`],
    windowsVerbatimArguments: true,
  };
}
