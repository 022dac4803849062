/**
 * File name endings mapped to the highlight.js grammars we load on demand (lowlight's common set, listed in
 * highlight/grammars.ts). Anything else is shown as plain text rather than guessed at.
 */
const BY_EXTENSION = new Map<string, string>(
  Object.entries({
    bash: 'bash',
    c: 'c',
    cc: 'cpp',
    cfg: 'ini',
    cjs: 'javascript',
    cpp: 'cpp',
    cs: 'csharp',
    css: 'css',
    cxx: 'cpp',
    diff: 'diff',
    go: 'go',
    graphql: 'graphql',
    h: 'c',
    hpp: 'cpp',
    htm: 'xml',
    html: 'xml',
    ini: 'ini',
    java: 'java',
    js: 'javascript',
    json: 'json',
    jsx: 'javascript',
    kt: 'kotlin',
    kts: 'kotlin',
    less: 'less',
    lua: 'lua',
    m: 'objectivec',
    md: 'markdown',
    mjs: 'javascript',
    mts: 'typescript',
    cts: 'typescript',
    patch: 'diff',
    php: 'php',
    pl: 'perl',
    py: 'python',
    r: 'r',
    rb: 'ruby',
    rs: 'rust',
    scss: 'scss',
    sh: 'bash',
    sql: 'sql',
    svg: 'xml',
    swift: 'swift',
    toml: 'ini',
    ts: 'typescript',
    tsx: 'typescript',
    xml: 'xml',
    yaml: 'yaml',
    yml: 'yaml',
    zsh: 'bash',
  }),
);

const BY_NAME = new Map<string, string>(
  Object.entries({
    makefile: 'makefile',
    gnumakefile: 'makefile',
    '.bashrc': 'bash',
    '.zshrc': 'bash',
    '.profile': 'bash',
  }),
);

/** The highlight.js language for a file path, or null when its name says nothing we can highlight. */
export function languageForPath(path: string): string | null {
  const name = (path.split(/[\\/]/).pop() ?? '').toLowerCase();
  const byName = BY_NAME.get(name);
  if (byName) return byName;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  return BY_EXTENSION.get(name.slice(dot + 1)) ?? null;
}
