import fs from 'node:fs';
import path from 'node:path';
import { notFound } from '../../errors';
import type { ToolCallWithResult } from '../../protocol';
import type { Store } from '../../store/store';
import { PREVIOUS_MAX_BYTES, replacedTextFile } from '../../tools/builtin/write-previous';
import { MCP_RESULT_FILE } from '../../tools/mcp-tool';
import { readRegularFile } from '../../tools/regular-file';
import type { ToolCallFiles } from '../../tools/tool-call-files';

/** A tool call as the API shows it: its record with the full result, and an MCP call's saved content. */
export class ToolCallService {
  constructor(private readonly deps: { store: Store; files: ToolCallFiles }) {}

  get(id: string): ToolCallWithResult {
    const call = this.deps.store.toolCalls.get(id);
    if (!call) throw notFound('Tool call', id);
    return { ...call, result: this.deps.files.readResultOf(call) };
  }

  /** The images, audio and resources an MCP tool call returned, as a file to download. */
  mcpResult(id: string): { name: string; open(): fs.ReadStream } {
    const call = this.deps.store.toolCalls.get(id);
    if (!call) throw notFound('Tool call', id);
    const file = path.join(this.deps.files.folderOf(call), MCP_RESULT_FILE);
    if (!fs.existsSync(file)) throw notFound('MCP result of tool call', id);
    return { name: MCP_RESULT_FILE, open: () => fs.createReadStream(file) };
  }

  /**
   * The text a Write call replaced, for its card's diff; not found when it replaced nothing or kept none.
   * Only a regular file of the size Write keeps is read: nothing is followed, waited on or read whole.
   */
  async previousContent(id: string): Promise<string> {
    const call = this.deps.store.toolCalls.get(id);
    if (!call) throw notFound('Tool call', id);
    const file = replacedTextFile(this.deps.files.replacedTextDir(call.session_id), call.id);
    const bytes = await readRegularFile(file, { maxBytes: PREVIOUS_MAX_BYTES });
    if (bytes === null) throw notFound('Previous content of tool call', id);
    return bytes.toString('utf8');
  }
}
