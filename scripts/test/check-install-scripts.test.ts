// scripts/check-install-scripts.mjs, the first step of `npm test`: run with the real npm against small
// projects laid out in temporary folders (package.json and node_modules, no network), and package.json's
// allowScripts checked against the lockfile.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FIRST_NPM_WITH_ALLOW_SCRIPTS, npmListsPendingScripts } from '../check-install-scripts.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHECK = path.join(ROOT, 'scripts', 'check-install-scripts.mjs');

interface PackageJson {
  allowScripts?: Record<string, boolean>;
  [field: string]: unknown;
}

const repoPackage = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson;
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A project folder with this package.json and these installed packages (name → their package.json). */
function project(pkg: PackageJson, installed: Record<string, object>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-install-scripts-'));
  folders.push(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  for (const [name, manifest] of Object.entries(installed)) {
    fs.mkdirSync(path.join(dir, 'node_modules', name), { recursive: true });
    fs.writeFileSync(path.join(dir, 'node_modules', name, 'package.json'), JSON.stringify(manifest));
  }
  return dir;
}

function check(dir: string): { code: number | null; out: string } {
  const run = spawnSync(process.execPath, [CHECK, dir], { encoding: 'utf8' });
  return { code: run.status, out: run.stdout + run.stderr };
}

const withoutEntry = (pkg: PackageJson, name: string): PackageJson => {
  const { [name]: _dropped, ...rest } = pkg.allowScripts ?? {};
  return { ...pkg, allowScripts: rest };
};

describe('check-install-scripts', () => {
  const fixture: PackageJson = {
    name: 'fixture',
    version: '1.0.0',
    private: true,
    dependencies: { 'native-thing': '1.0.0', 'helper-thing': '2.0.0', 'plain-thing': '3.0.0' },
    allowScripts: { 'native-thing': true, 'helper-thing': false },
  };
  const installed = {
    'native-thing': { name: 'native-thing', version: '1.0.0', scripts: { install: 'node build.js' } },
    'helper-thing': { name: 'helper-thing', version: '2.0.0', scripts: { postinstall: 'node fetch.js' } },
    'plain-thing': { name: 'plain-thing', version: '3.0.0', scripts: { test: 'node test.js' } },
  };

  it('passes when every package with an install script is allowed or denied', () => {
    const result = check(project(fixture, installed));
    expect(result.out).toMatch(/allows or denies every install script in node_modules/);
    expect(result.code).toBe(0);
  });

  it('fails, naming the package and the commands that decide, when an allow or a deny entry is missing', () => {
    for (const name of ['native-thing', 'helper-thing']) {
      const version = installed[name as keyof typeof installed].version;
      const result = check(project(withoutEntry(fixture, name), installed));
      expect(result.code).toBe(1);
      expect(result.out).toContain(`1 installed package(s) have install scripts`);
      expect(result.out).toContain(`  ${name}@${version}\n`);
      expect(result.out).not.toContain('plain-thing');
      expect(result.out).toMatch(/npm approve-scripts <pkg>.*npm deny-scripts <pkg>/);
    }
  });

  it('fails when node_modules is missing rather than finding nothing pending', () => {
    const dir = project(fixture, {});
    fs.rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true });
    const result = check(dir);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/node_modules is missing: run `npm ci` first/);
  });

  it('says it skipped when node_modules is a link to another checkout’s, where npm cannot match packages', () => {
    const real = project(fixture, installed);
    const linked = project(withoutEntry(fixture, 'native-thing'), {});
    fs.rmSync(path.join(linked, 'node_modules'), { recursive: true, force: true });
    fs.symlinkSync(path.join(real, 'node_modules'), path.join(linked, 'node_modules'), 'dir');
    const result = check(linked);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(
      /skipped: node_modules is a symbolic link \(to .*\), through which npm cannot match/,
    );
  });

  it('knows which npm versions have `npm approve-scripts --allow-scripts-pending`', () => {
    expect(FIRST_NPM_WITH_ALLOW_SCRIPTS).toBe('11.16.0');
    for (const old of ['10.9.4', '11.15.9', '9.9.9']) expect(npmListsPendingScripts(old)).toBe(false);
    for (const current of ['11.16.0', '11.19.1', '12.0.0-pre.1', '12.2.2']) {
      expect(npmListsPendingScripts(current)).toBe(true);
    }
  });
});

describe("Cairn's allowScripts", () => {
  it('is checked first by `npm test`', () => {
    expect((repoPackage.scripts as Record<string, string>).test).toMatch(
      /^node scripts\/check-install-scripts\.mjs && /,
    );
  });

  const withScripts = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([location]) => location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length));

  it('decides for exactly the locked packages that have install scripts, by name', () => {
    // The lockfile carries no `resolved` URLs, so pinned keys (pkg@1.2.3) would never match: npm writes names.
    expect(Object.keys(repoPackage.allowScripts ?? {}).sort()).toEqual([...new Set(withScripts)].sort());
    expect(repoPackage.allowScripts).toEqual({
      'better-sqlite3': true,
      electron: true,
      esbuild: true,
      keytar: true,
      // Its script picks a 7-Zip binary for Squirrel.Windows installers; Cairn builds NSIS ones.
      'electron-winstaller': false,
      // It builds a native binding of the bash grammar; Cairn uses only its WebAssembly build.
      'tree-sitter-bash': false,
    });
  });

  it('covers those packages’ real install scripts, and not once an entry is removed', () => {
    // The installed manifests, plus the package through which npm installs electron-winstaller (the
    // incoming dependency is what lets npm trust a package's name when the lockfile has no URL).
    const manifests = Object.fromEntries(
      [...withScripts, 'electron-builder-squirrel-windows'].map((name) => [
        name,
        JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as object,
      ]),
    );
    expect(check(project(repoPackage, manifests)).code).toBe(0);
    const result = check(project(withoutEntry(repoPackage, 'better-sqlite3'), manifests));
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/\n {2}better-sqlite3@\d+\.\d+\.\d+\n/);
  });
});
