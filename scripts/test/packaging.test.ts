// The installer configuration, checked statically: electron-builder.yml against electron-builder's own
// schema, what it promises (per-user NSIS, hardened and notarizable macOS builds, fuses), the resources it
// names, the icon, and the dependency layout that decides what ships in node_modules.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Configuration } from 'electron-builder';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../sidecar/test/support/harness';
import { loadBuilderConfig, ROOT, validateBuilderConfig } from './support/builder-config';
import { hasNativeCode } from './support/native-code';

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  main: string;
  version: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

let config: Configuration;

beforeAll(async () => {
  config = await loadBuilderConfig();
});

interface TargetEntry {
  target: string;
  arch?: string[];
}

function targets(platform: { target?: unknown } | null | undefined): TargetEntry[] {
  return ((platform?.target ?? []) as (string | TargetEntry)[]).map((entry) =>
    typeof entry === 'string' ? { target: entry } : entry,
  );
}

describe('electron-builder.yml', () => {
  it('passes electron-builder’s schema, which does reject a misspelt option', async () => {
    await expect(validateBuilderConfig(config)).resolves.toBeUndefined();
    const misspelt = { ...config, mac: { ...config.mac, hardenedRuntim: true } } as Configuration;
    await expect(validateBuilderConfig(misspelt)).rejects.toThrow(
      /Invalid configuration object[\s\S]*configuration\.mac/,
    );
  });

  it('names the app and keeps build resources in build/ and installers in release/ (ignored by git)', () => {
    expect(config.appId).toBe('dev.cairn.app');
    expect(config.productName).toBe('Cairn');
    expect(config.directories).toMatchObject({ buildResources: 'build', output: 'release' });
    expect(fs.statSync(path.join(ROOT, 'build')).isDirectory()).toBe(true);
    const ignored = spawnSync('git', ['check-ignore', '-q', 'release/Cairn-Setup.exe'], { cwd: ROOT });
    expect(ignored.status).toBe(0);
  });

  it('sets the Electron fuses: no RunAsNode, encrypted cookies, only an integrity-checked app.asar', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
      resetAdHocDarwinSignature: true,
    });
    expect(config.asar).toBe(true);
  });

  it('unpacks native addons from the asar archive and rebuilds native modules for Electron', () => {
    expect(config.asarUnpack).toContain('**/*.node');
    expect(config.npmRebuild).not.toBe(false);
    // A hook returning false would skip the rebuild; none is set.
    expect(config.beforeBuild).toBeUndefined();
  });

  it('builds a per-user NSIS installer for Windows', () => {
    expect(targets(config.win).map((t) => t.target)).toEqual(['nsis']);
    expect(config.nsis).toMatchObject({ oneClick: true, perMachine: false });
  });

  it('builds hardened, notarizable DMG and zip for both Mac architectures', () => {
    const mac = targets(config.mac);
    expect(mac.map((t) => t.target).sort()).toEqual(['dmg', 'zip']);
    for (const target of mac) expect(target.arch?.sort()).toEqual(['arm64', 'x64']);
    expect(config.mac?.hardenedRuntime).toBe(true);
    expect(config.mac?.gatekeeperAssess).toBe(false);
    // false would skip notarization even when the APPLE_* environment is there.
    expect(config.mac?.notarize).not.toBe(false);
  });

  it('grants the app and its helpers only the JIT entitlement', () => {
    const files = [config.mac?.entitlements, config.mac?.entitlementsInherit];
    // Without entitlementsInherit the helpers would get electron-builder's broader template.
    for (const file of files) {
      expect(file).toBeTruthy();
      const plist = fs.readFileSync(path.join(ROOT, file!), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
      const entries = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<(true|false)\/>/g)].map((m) => [m[1], m[2]]);
      expect(entries).toEqual([['com.apple.security.cs.allow-jit', 'true']]);
      expect(plist).toMatch(/^<\?xml[^>]*\?>\s*<!DOCTYPE plist[^>]*>\s*<plist version="1.0">\s*<dict>/);
    }
  });

  it('references only resources that exist', () => {
    const referenced = [
      config.directories?.buildResources,
      config.mac?.entitlements,
      config.mac?.entitlementsInherit,
      config.mac?.icon,
      config.win?.icon,
      ...[config.extraResources, config.extraFiles].flatMap((sets) =>
        ((sets ?? []) as { from?: string }[]).map((set) => set.from),
      ),
    ].filter((file): file is string => typeof file === 'string');
    expect(referenced.length).toBeGreaterThanOrEqual(5);
    for (const file of referenced) expect(fs.existsSync(path.join(ROOT, file)), file).toBe(true);
  });
});

describe('the Python kernel driver', () => {
  it('ships as a resource outside the archive, where the sidecar looks for it (<resources>/kernel)', () => {
    const sets = (config.extraResources ?? []) as { from?: string; to?: string; filter?: string[] }[];
    const driver = sets.find((set) => set.from === 'sidecar/src/kernels/driver');
    expect(driver?.to).toBe('kernel');
    expect(driver?.filter).toEqual(['cairn_kernel.py']);
    expect(fs.existsSync(path.join(ROOT, 'sidecar/src/kernels/driver/cairn_kernel.py'))).toBe(true);
    const lookup = fs.readFileSync(path.join(ROOT, 'sidecar/src/kernels/driver-path.ts'), 'utf8');
    expect(lookup).toContain("packagedResource('kernel', 'cairn_kernel.py')");
  });
});

describe("the tool runtime's assets: the workers of loaded tools and the Python client", () => {
  it('ship as resources outside the archive, where the sidecar looks for them (<resources>/tool-runtime)', () => {
    const sets = (config.extraResources ?? []) as { from?: string; to?: string; filter?: string[] }[];
    const workers = sets.find((set) => set.from === 'sidecar/src/tools/runtime/assets');
    expect(workers?.to).toBe('tool-runtime');
    // The JavaScript worker imports the core beside it.
    expect(workers?.filter).toEqual([
      'cairn-tool-worker.mjs',
      'tool-worker-core.mjs',
      'cairn_tool_worker.py',
      'python/cairn_tools.py',
      'python/cairn_runtime.py',
    ]);
    for (const file of workers?.filter ?? []) {
      expect(fs.existsSync(path.join(ROOT, 'sidecar/src/tools/runtime/assets', file)), file).toBe(true);
    }
    const lookup = fs.readFileSync(path.join(ROOT, 'sidecar/src/tools/runtime/runtime-assets.ts'), 'utf8');
    expect(lookup).toContain("packagedResource('tool-runtime')");
  });
});

describe('the bash grammar that permission rules read commands with', () => {
  it('ships its two .wasm files as resources (<resources>/shell-grammar); its JavaScript is bundled', () => {
    const sets = (config.extraResources ?? []) as { from?: string; to?: string; filter?: string[] }[];
    const grammar = sets.filter((set) => set.to === 'shell-grammar');
    expect(grammar.map((set) => [set.from, set.filter])).toEqual([
      ['node_modules/web-tree-sitter', ['web-tree-sitter.wasm']],
      ['node_modules/tree-sitter-bash', ['tree-sitter-bash.wasm']],
    ]);
    for (const set of grammar) {
      for (const file of set.filter ?? [])
        expect(fs.existsSync(path.join(ROOT, set.from!, file)), file).toBe(true);
    }
    // Not runtime dependencies: node_modules does not ship them, so the bundle holds their JavaScript.
    expect(pkg.dependencies).not.toHaveProperty('web-tree-sitter');
    expect(pkg.dependencies).not.toHaveProperty('tree-sitter-bash');
    const lookup = fs.readFileSync(path.join(ROOT, 'sidecar/src/tools/permissions/shell-parser.ts'), 'utf8');
    expect(lookup).toContain("packagedResource('shell-grammar', file)");
  });
});

describe('the app icon', () => {
  const iconFile = () => path.join(ROOT, config.mac!.icon!);

  it('is a valid 1024×1024 RGBA PNG, large enough for .icns (512) and .ico (256)', () => {
    const png = decodePng(fs.readFileSync(iconFile()));
    expect(png).toMatchObject({ width: 1024, height: 1024 });
    expect(config.win?.icon).toBe(config.mac?.icon);
    // Transparent corners around an opaque tile, stones in the middle that are lighter than the tile.
    expect(png.pixel(2, 2)[3]).toBe(0);
    expect(png.pixel(1021, 1021)[3]).toBe(0);
    const tile = png.pixel(150, 650);
    const stone = png.pixel(512, 650);
    expect(tile[3]).toBe(255);
    expect(stone[3]).toBe(255);
    expect(brightness(stone)).toBeGreaterThan(brightness(tile) + 40);
  });

  it('is what scripts/make-icon.mjs draws', { timeout: 60_000 }, () => {
    const dir = tempDir('icon');
    try {
      const out = path.join(dir, 'icon.png');
      const made = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'make-icon.mjs'), '--out', out]);
      expect(made.status, made.stderr?.toString()).toBe(0);
      // Compared decoded, since another zlib may compress the same pixels differently.
      expect(decodePng(fs.readFileSync(out)).raw.equals(decodePng(fs.readFileSync(iconFile())).raw)).toBe(
        true,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('dependencies and install settings', () => {
  it('ships only native modules as runtime dependencies; everything else is bundled', () => {
    const runtime = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies ?? {})];
    expect(runtime).toContain('better-sqlite3');
    for (const name of runtime) {
      const dir = path.join(ROOT, 'node_modules', name);
      // An optional dependency may have failed to install; one that is there must be native.
      if (name in pkg.dependencies || fs.existsSync(dir)) expect(hasNativeCode(dir), name).toBe(true);
    }
    // electron-builder refuses to package with these in dependencies.
    for (const tool of ['electron', 'electron-builder']) expect(pkg.dependencies).not.toHaveProperty(tool);
  });

  it('points main at the Electron bundle and has the packaging scripts', () => {
    expect(pkg.main).toBe('dist/electron/main.cjs');
    expect(pkg.scripts).toMatchObject({
      'build:app': 'node scripts/build-app.mjs',
      'package:win': 'node scripts/package.mjs win',
      'package:mac': 'node scripts/package.mjs mac',
      start: 'node scripts/start.mjs',
      serve: 'node scripts/serve.mjs',
    });
  });

  it('does not commit ELECTRON_SKIP_BINARY_DOWNLOAD into an .npmrc (people installing need the binary)', () => {
    const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(listed.status).toBe(0);
    const npmrcs = listed.stdout.split('\n').filter((file) => path.basename(file) === '.npmrc');
    if (fs.existsSync(path.join(ROOT, '.npmrc'))) expect(npmrcs).toContain('.npmrc');
    for (const file of npmrcs) {
      expect(fs.readFileSync(path.join(ROOT, file), 'utf8').toLowerCase()).not.toMatch(
        /electron[_-]skip[_-]binary[_-]download/,
      );
    }
  });

  it('refuses to package for another OS, and explains usage', () => {
    const script = path.join(ROOT, 'scripts', 'package.mjs');
    const other = process.platform === 'darwin' ? 'win' : 'mac';
    const wrong = spawnSync(process.execPath, [script, other], { cwd: ROOT, encoding: 'utf8' });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/installers are built on (macOS|Windows)/);
    const usage = spawnSync(process.execPath, [script], { cwd: ROOT, encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('Usage: node scripts/package.mjs win|mac');
  });
});

function brightness([r, g, b]: number[]): number {
  return (r! + g! + b!) / 3;
}

/** Reads an 8-bit RGBA PNG: checks signature and chunk CRCs, inflates, and undoes the None/Sub filters. */
function decodePng(file: Buffer) {
  expect(file.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  let offset = 8;
  let header: Buffer | null = null;
  const data: Buffer[] = [];
  while (offset < file.length) {
    const length = file.readUInt32BE(offset);
    const type = file.toString('latin1', offset + 4, offset + 8);
    const body = file.subarray(offset + 8, offset + 8 + length);
    expect(file.readUInt32BE(offset + 8 + length), `${type} CRC`).toBe(
      zlib.crc32(file.subarray(offset + 4, offset + 8 + length)),
    );
    if (type === 'IHDR') header = body;
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  expect(header).not.toBeNull();
  const width = header!.readUInt32BE(0);
  const height = header!.readUInt32BE(4);
  expect([...header!.subarray(8, 13)]).toEqual([8, 6, 0, 0, 0]);
  const raw = zlib.inflateSync(Buffer.concat(data));
  const stride = width * 4;
  expect(raw.length).toBe((stride + 1) * height);
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    expect([0, 1]).toContain(filter);
    for (let i = 0; i < stride; i++) {
      const left = filter === 1 && i >= 4 ? pixels[y * stride + i - 4]! : 0;
      pixels[y * stride + i] = (raw[y * (stride + 1) + 1 + i]! + left) & 0xff;
    }
  }
  return {
    width,
    height,
    raw,
    pixel: (x: number, y: number) => [...pixels.subarray((y * width + x) * 4, (y * width + x) * 4 + 4)],
  };
}
