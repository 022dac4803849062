import nodeModule from 'node:module';
import { ToolError } from '../../tool';

type StripTypeScriptTypes = (
  code: string,
  options?: { mode?: 'strip' | 'transform'; sourceUrl?: string },
) => string;

/**
 * A TypeScript module as JavaScript (an ES module). Node 22.13+ (the one Electron bundles) strips the
 * types itself; an older Node uses esbuild, a development dependency present when Cairn runs from source.
 * `label` names the file in messages.
 */
export async function transpileTypeScript(source: string, file: string, label: string): Promise<string> {
  const strip = (nodeModule as { stripTypeScriptTypes?: StripTypeScriptTypes }).stripTypeScriptTypes;
  if (typeof strip === 'function') {
    try {
      // `transform` also handles enums and namespaces, which plain stripping refuses.
      return strip(source, { mode: 'transform', sourceUrl: file });
    } catch (err) {
      throw new ToolError(`${label} could not be compiled: ${errorMessage(err)}`);
    }
  }
  const unavailable = (why: string) =>
    new ToolError(
      `${label} is TypeScript, which this Cairn cannot compile: it runs on Node ${process.versions.node} ` +
        `(older than 22.13) and esbuild ${why}. Write the tool in JavaScript (.mjs).`,
    );
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    throw unavailable('is not installed');
  }
  try {
    const result = await esbuild.transform(source, {
      loader: 'ts',
      format: 'esm',
      sourcefile: file,
      target: `node${process.versions.node.split('.')[0]}`,
    });
    return result.code;
  } catch (err) {
    // A compile error lists what is wrong; anything else means esbuild itself could not run.
    if (Array.isArray((err as { errors?: unknown }).errors)) {
      throw new ToolError(`${label} could not be compiled: ${errorMessage(err)}`);
    }
    throw unavailable(`did not run (${errorMessage(err)})`);
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
