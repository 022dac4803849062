// Loads electron-builder.yml the way electron-builder itself does (app-builder-lib's getConfig) and checks it
// against electron-builder's JSON schema (validateConfiguration), so a misspelt key fails here, offline,
// instead of at packaging time on another machine.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Configuration } from 'electron-builder';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const CONFIG_FILE = 'electron-builder.yml';

interface ConfigModule {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: null): Promise<Configuration>;
  validateConfiguration(config: Configuration, debugLogger: unknown): Promise<void>;
}

// app-builder-lib is electron-builder's own dependency: resolve it from there, as electron-builder does.
const fromBuilder = createRequire(createRequire(import.meta.url).resolve('electron-builder/package.json'));
const appBuilderLib = createRequire(fromBuilder.resolve('app-builder-lib/package.json'));
const configModule = appBuilderLib('./out/util/config/config.js') as ConfigModule;
const { DebugLogger } = appBuilderLib('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

export function loadBuilderConfig(): Promise<Configuration> {
  return configModule.getConfig(ROOT, CONFIG_FILE, null);
}

export function validateBuilderConfig(config: Configuration): Promise<void> {
  return configModule.validateConfiguration(config, new DebugLogger(false));
}

/** The glob patterns of `files`, as getConfig normalises them (one file set without from/to). */
export function filePatterns(config: Configuration): string[] {
  const sets = (config.files ?? []) as { from?: string; to?: string; filter?: string[] }[];
  return sets.flatMap((set) => set.filter ?? []);
}

/** The fixed folder a glob pattern starts from: `dist/sidecar/**` → `dist/sidecar`. */
export function patternRoot(pattern: string): string {
  const parts = pattern.replace(/^!/, '').split('/');
  const fixed: string[] = [];
  for (const part of parts) {
    if (/[*?[{]/.test(part)) break;
    fixed.push(part);
  }
  return path.join(...fixed);
}
