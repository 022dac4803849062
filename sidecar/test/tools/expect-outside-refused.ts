import { expect } from 'vitest';
import { ToolError, type ToolResult } from '../../src/tools/tool';

/** Runs a file tool and expects the ToolError saying the path is outside the project folder. */
export async function expectOutsideRefused(run: () => Promise<ToolResult>): Promise<void> {
  const error = await run().then(
    (result) => new Error(`not refused: ${result.content}`),
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ToolError);
  expect((error as Error).message).toMatch(/outside the project folder/);
}
