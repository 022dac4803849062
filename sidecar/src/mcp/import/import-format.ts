import type { McpImportSource } from '../../protocol/mcp';
import type { EnvRefSyntax } from './placeholders';

/** Where to look for a config: the user's machine, and the project when the import is for one. */
export interface ImportPlaces {
  home: string;
  platform: NodeJS.Platform;
  /** Windows' %APPDATA%; `<home>\AppData\Roaming` when not given. */
  appData?: string;
  projectRoot?: string;
}

/** A VS Code `inputs` entry the file declares. */
export interface DeclaredInput {
  description: string | null;
  password: boolean;
  default: string | null;
}

/** What differs between the four formats; everything else is shared (see server-entry.ts). */
export interface ImportFormat {
  source: McpImportSource;
  /** The app's name, for messages. */
  app: string;
  envRefs: EnvRefSyntax;
  /** The object of servers by name; throws McpConfigError when the file has none. */
  servers(root: Record<string, unknown>, fileLabel: string): Record<string, unknown>;
  /** The `inputs` the file declares, by question id (`input:<id>`). */
  inputs(root: Record<string, unknown>): Map<string, DeclaredInput>;
  /** Candidate files, most specific first. */
  defaultPaths(places: ImportPlaces): string[];
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
