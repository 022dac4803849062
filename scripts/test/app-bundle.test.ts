// The app's bundles for real: `scripts/build-app.mjs` builds them; what they leave external is exactly
// what ships in node_modules; and the sidecar bundle starts under Node from a folder shaped like the
// packaged app (package.json, dist/sidecar, renderer/dist and only the runtime dependencies' node_modules),
// with no sources and no dev dependencies within reach. Then `npm start` (scripts/start.mjs) with a
// stand-in for the Electron binary, which cannot be had here.
import { type ChildProcess, fork, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SidecarReady } from '../../sidecar/src/protocol/host';
import { tempDir } from '../../sidecar/test/support/harness';
import { filePatterns, loadBuilderConfig, patternRoot, ROOT } from './support/builder-config';
import { hasNativeCode, packageDirOf } from './support/native-code';

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  main: string;
  version: string;
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};
const RUNTIME = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies ?? {})];
const BUNDLES = {
  sidecar: 'dist/sidecar/cairn.mjs',
  main: 'dist/electron/main.cjs',
  preload: 'dist/electron/preload.cjs',
} as const;
type BundleName = keyof typeof BUNDLES;
const TOKEN = 'bundle-test-token-0123456789-abcdefghij';

interface Metafile {
  inputs: Record<string, { imports: { path: string; external?: boolean }[] }>;
}

const metafile = (name: BundleName) =>
  JSON.parse(fs.readFileSync(path.join(ROOT, 'dist', 'meta', `${name}.json`), 'utf8')) as Metafile;

function externals(name: BundleName): string[] {
  const found = new Set<string>();
  for (const input of Object.values(metafile(name).inputs)) {
    for (const imported of input.imports) if (imported.external) found.add(imported.path);
  }
  return [...found].filter((spec) => spec !== '<runtime>' && !isBuiltin(spec));
}

function isBuiltin(spec: string): boolean {
  return spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]!);
}

const mtime = (file: string) => fs.statSync(path.join(ROOT, file)).mtimeMs;

beforeAll(() => {
  const built = spawnSync(process.execPath, ['scripts/build-app.mjs', '--only', 'sidecar,electron'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(built.status, built.stderr).toBe(0);
}, 120_000);

describe('the bundles', () => {
  it('keep external exactly what ships: Node builtins, electron, and runtime dependencies', () => {
    for (const name of Object.keys(BUNDLES) as BundleName[]) {
      for (const spec of externals(name)) {
        if (spec === 'electron' && name !== 'sidecar') continue;
        // Loaded only when present, from source (a TypeScript tool on an older Node); never shipped
        // (scripts/build/bundles.mjs, DEV_ONLY_LOADS).
        if (name === 'sidecar' && spec === 'esbuild') continue;
        // An optional require left unresolved (ws's bufferutil) may be external only if nothing provides it.
        const installed = fs.existsSync(path.join(ROOT, 'node_modules', spec));
        expect(RUNTIME.includes(spec) || !installed, `${name} bundle leaves ${spec} external`).toBe(true);
      }
    }
    // The sandboxed preload can require only electron.
    expect(externals('preload')).toEqual(['electron']);
    // The sidecar really loads better-sqlite3 from node_modules, rather than carrying a copy.
    expect(externals('sidecar')).toContain('better-sqlite3');
  });

  it('bundle no package with native code, and every native package they reach is a runtime dependency', () => {
    for (const name of Object.keys(BUNDLES) as BundleName[]) {
      const packages = new Set(
        Object.keys(metafile(name).inputs)
          .map(packageDirOf)
          .filter((dir): dir is string => dir !== null),
      );
      expect(packages.size, `${name} bundles packages from node_modules`).toBeGreaterThan(
        name === 'preload' ? -1 : 0,
      );
      for (const dir of packages)
        expect(hasNativeCode(path.join(ROOT, dir)), `${dir} in ${name}`).toBe(false);
    }
    for (const spec of externals('sidecar')) {
      const dir = path.join(ROOT, 'node_modules', spec);
      if (fs.existsSync(dir) && hasNativeCode(dir)) expect(RUNTIME).toContain(spec);
    }
  });

  it('are what electron-builder.yml packages, with package.json main among them', async () => {
    const patterns = filePatterns(await loadBuilderConfig());
    for (const pattern of patterns.filter((p) => !p.startsWith('!'))) {
      expect(fs.existsSync(path.join(ROOT, patternRoot(pattern))), pattern).toBe(true);
    }
    expect(patterns).toEqual(expect.arrayContaining(['package.json', 'dist/electron/**', 'dist/sidecar/**']));
    expect(patterns).toContain('renderer/dist/**');
    for (const file of Object.values(BUNDLES))
      expect(fs.statSync(path.join(ROOT, file)).size).toBeGreaterThan(0);
    expect(pkg.main).toBe(BUNDLES.main);
  });
});

describe('the sidecar bundle in the packaged layout, under Node', () => {
  let app: string;
  let dataDir: string;
  const children: ChildProcess[] = [];

  beforeAll(() => {
    if (!fs.existsSync(path.join(ROOT, 'renderer', 'dist', 'index.html'))) {
      const vite = spawnSync('npm', ['run', 'build:renderer'], { cwd: ROOT, encoding: 'utf8' });
      expect(vite.status, vite.stderr).toBe(0);
    }
    // Outside the repository, so module resolution cannot fall back on its node_modules.
    app = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-packaged-')));
    dataDir = tempDir('bundle-data');
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(app, 'package.json'));
    fs.cpSync(path.join(ROOT, 'dist', 'sidecar'), path.join(app, 'dist', 'sidecar'), {
      recursive: true,
      filter: (file) => !file.endsWith('.map'),
    });
    fs.cpSync(path.join(ROOT, 'renderer', 'dist'), path.join(app, 'renderer', 'dist'), { recursive: true });
    for (const dir of runtimeClosure()) {
      fs.cpSync(path.join(ROOT, dir), path.join(app, dir), { recursive: true, verbatimSymlinks: true });
    }
  }, 120_000);

  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(app, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const bundle = () => path.join(app, BUNDLES.sidecar);
  const env = () => ({ ...process.env, CAIRN_TOKEN: TOKEN, CAIRN_DATA_DIR: dataDir, NODE_PATH: undefined });

  it('holds only the runtime dependencies, not the bundled ones', () => {
    const shipped = fs.readdirSync(path.join(app, 'node_modules'));
    expect(shipped).toContain('better-sqlite3');
    for (const bundled of ['fastify', 'zod', '@anthropic-ai', 'tsx', 'react'])
      expect(shipped).not.toContain(bundled);
    expect(fs.existsSync(path.join(app, 'sidecar'))).toBe(false);
  });

  it('prints the version from package.json', () => {
    const run = spawnSync(process.execPath, [bundle(), '--version'], {
      cwd: app,
      env: env(),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`cairn ${pkg.version}\n`);
    expect(run.status).toBe(0);
  });

  it('serves the API and the built web UI, and exits 0 on SIGINT', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [bundle(), 'serve', '--port', '0'], {
      cwd: app,
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
        const match = stdout.match(/Cairn (http:\/\/127\.0\.0\.1:\d+) is ready/);
        if (match) resolve(match[1]!);
      });
      void exited.then((code) => reject(new Error(`serve exited (${code}) before ready:\n${stderr}`)));
    });

    const health = await fetch(`${url}/api/health`);
    expect(await health.json()).toMatchObject({ ok: true, name: 'cairn', version: pkg.version });
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(fs.readFileSync(path.join(app, 'renderer', 'dist', 'index.html'), 'utf8'));
    const projects = await fetch(`${url}/api/projects`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(projects.status).toBe(200);

    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('starts as the desktop host starts it in development: forked, given its token and reporting ready over IPC', async () => {
    const child = fork(bundle(), ['serve', '--port', '0', '--parent-ipc'], {
      cwd: app,
      // The host hands the token over the channel, never in the environment.
      env: { ...env(), CAIRN_TOKEN: undefined },
      execArgv: [],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
    });
    children.push(child);
    child.stdout?.resume();
    child.stderr?.resume();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const ready = await new Promise<SidecarReady>((resolve, reject) => {
      child.on('message', (message: { type?: string }) => {
        if (message.type === 'hello') child.send({ type: 'configure', token: TOKEN });
        if (message.type === 'ready') resolve(SidecarReady.parse(message));
      });
      void exited.then((code) => reject(new Error(`serve --parent-ipc exited (${code}) before ready`)));
    });
    expect(ready).toMatchObject({ version: pkg.version, pid: child.pid });
    const health = await fetch(`http://127.0.0.1:${ready.port}/api/health`);
    expect(health.status).toBe(200);
    const projects = await fetch(`http://127.0.0.1:${ready.port}/api/projects`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(projects.status).toBe(200);

    child.send({ type: 'shutdown' });
    expect(await exited).toBe(0);
  });
});

describe('npm start (scripts/start.mjs)', () => {
  const start = path.join(ROOT, 'scripts', 'start.mjs');
  let electronMissing = false;
  try {
    createRequire(path.join(ROOT, 'package.json'))('electron');
  } catch {
    electronMissing = true;
  }

  it.skipIf(!electronMissing)(
    'says how to get Electron, and about `npm run serve`, when its binary is missing',
    () => {
      const run = spawnSync(process.execPath, [start], {
        cwd: ROOT,
        env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: undefined },
        encoding: 'utf8',
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('The Electron binary is missing');
      expect(run.stderr).toContain('node node_modules/electron/install.js');
      expect(run.stderr).toContain('ELECTRON_SKIP_BINARY_DOWNLOAD');
      expect(run.stderr).toContain('npm run serve');
      expect(run.stderr).not.toContain('Building');
    },
  );

  it('rebuilds only stale bundles, then launches Electron on the app with Node for the sidecar', () => {
    // A stand-in for the binary, through the electron package's own override.
    const fake = tempDir('fake-electron');
    try {
      const record = path.join(fake, 'launch.json');
      // The binary's path inside the dist folder, as the electron package records it (if it was installed).
      const pathTxt = path.join(ROOT, 'node_modules', 'electron', 'path.txt');
      const binary = path.join(fake, fs.existsSync(pathTxt) ? fs.readFileSync(pathTxt, 'utf8') : 'electron');
      fs.mkdirSync(path.dirname(binary), { recursive: true });
      fs.writeFileSync(
        binary,
        `#!${process.execPath}\nrequire('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify({ ` +
          'cwd: process.cwd(), args: process.argv.slice(2), devNode: process.env.CAIRN_DEV_NODE, ' +
          'runAsNode: process.env.ELECTRON_RUN_AS_NODE ?? null }));\nprocess.exit(7);\n',
        { mode: 0o755 },
      );
      // The preload looks older than its sources; the sidecar bundle is fresh (rebuilt now if a source
      // changed since beforeAll, so that only the launch itself is watched).
      spawnSync(process.execPath, ['scripts/build-app.mjs', '--only', 'sidecar', '--if-stale'], {
        cwd: ROOT,
      });
      const longAgo = new Date('2001-01-01T00:00:00Z');
      fs.utimesSync(path.join(ROOT, BUNDLES.preload), longAgo, longAgo);
      const sidecarBuiltAt = mtime(BUNDLES.sidecar);

      const run = spawnSync(process.execPath, [start, '--skip-renderer', '--inspect-me'], {
        cwd: ROOT,
        env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: fake, ELECTRON_RUN_AS_NODE: '1' },
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(7);
      expect(JSON.parse(fs.readFileSync(record, 'utf8'))).toEqual({
        cwd: ROOT.replace(/\/$/, ''),
        args: ['.', '--inspect-me'],
        devNode: process.execPath,
        runAsNode: null,
      });
      expect(mtime(BUNDLES.preload)).toBeGreaterThan(longAgo.getTime());
      expect(mtime(BUNDLES.sidecar)).toBe(sidecarBuiltAt);
      expect(run.stderr).not.toContain('web UI');
    } finally {
      fs.rmSync(fake, { recursive: true, force: true });
    }
  });
});

/** The folders (node_modules/…) of the runtime dependencies and everything they depend on, as Node resolves them. */
function runtimeClosure(): string[] {
  const found = new Set<string>();
  const visit = (name: string, from: string) => {
    for (const dir of lookupDirs(from)) {
      const candidate = path.join(dir, 'node_modules', name);
      if (!fs.existsSync(path.join(ROOT, candidate, 'package.json'))) continue;
      if (found.has(candidate)) return;
      found.add(candidate);
      const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, candidate, 'package.json'), 'utf8'));
      for (const dep of [
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.optionalDependencies ?? {}),
      ]) {
        visit(dep, candidate);
      }
      return;
    }
  };
  for (const name of RUNTIME) visit(name, '');
  return [...found];
}

/** Where Node looks for a package required from `from`: its own node_modules, then each enclosing one. */
function lookupDirs(from: string): string[] {
  const dirs = [from];
  for (let dir = from; dir !== ''; dirs.push(dir)) {
    const at = dir.lastIndexOf('node_modules');
    dir = at <= 0 ? '' : dir.slice(0, at - 1);
  }
  return dirs;
}
