import path from 'node:path';
import { z } from 'zod';
import { writeOwnerOnlyFile } from '../config/owner-only-files';
import type { McpCallResult, McpConnection, McpToolDef } from '../mcp/mcp-connection';
import { defineTool, type Tool, ToolError, type ToolProgress } from './tool';

/** The file beside a call's result where an MCP tool's images, audio and resources are kept. */
export const MCP_RESULT_FILE = 'mcp_result.json';

/** Any JSON object: the server validates its own input. */
const AnyObject = z.record(z.string(), z.unknown());

/**
 * One MCP tool as an agent tool: called by its agent name, forwarded under the server's own name. MCP tools
 * act outside Cairn's view, so they count as having side effects (approval in `ask` mode).
 */
export function mcpAgentTool(options: {
  agentName: string;
  serverName: string;
  def: McpToolDef;
  /** The connection now (a reset replaces it); null when the server is not connected. */
  connection: () => McpConnection | null;
}): Tool {
  const { agentName, serverName, def } = options;
  const description = `${def.description ?? `The ${def.name} tool`} (MCP server "${serverName}", tool "${def.name}")`;
  return defineTool({
    name: agentName,
    description: description.slice(0, 4_000),
    inputSchema: AnyObject,
    jsonSchema: { type: 'object', ...def.inputSchema },
    sideEffects: true,
    needsProject: false,
    // A background call has no limit of the server's own; the runner keeps a `timeout` given with it.
    background: 'runner',
    async execute(input, ctx) {
      const connection = options.connection();
      if (connection?.state !== 'connected') {
        throw new ToolError(
          `The MCP server "${serverName}" is not connected${connection ? ` (${connection.state})` : ''}; its tools are unavailable until it is started again at the session's next message.`,
        );
      }
      const result = await connection.callTool(def.name, input, {
        signal: ctx.signal,
        ...(ctx.background ? { timeoutMs: null } : {}),
        ...(ctx.onProgress ? { onProgress: (p: ToolProgress) => ctx.onProgress?.(p) } : {}),
        ...(ctx.elicit ? { elicit: ctx.elicit.bind(ctx) } : {}),
      });
      // A call that changed the server's tools (list_changed) answers once they are listed again, so
      // the model's next request has them.
      await connection.toolsSettled(ctx.signal);
      const saved =
        result.attachments.length > 0
          ? saveAttachments(ctx.sessionResultsDir, ctx.toolCallId, serverName, def.name, result)
          : null;
      const text = [result.text, saved].filter((part) => part).join('\n\n') || '(no text content)';
      return { content: text, isError: result.isError };
    },
  });
}

/** Writes the non-text content to the call's mcp_result.json and says so for the model. */
function saveAttachments(
  resultsDir: string,
  toolCallId: string,
  serverName: string,
  toolName: string,
  result: McpCallResult,
): string {
  const dir = path.join(resultsDir, toolCallId);
  const file = path.join(dir, MCP_RESULT_FILE);
  writeOwnerOnlyFile(
    file,
    `${JSON.stringify({ server: serverName, tool: toolName, is_error: result.isError, content: result.attachments }, null, 1)}\n`,
  );
  const kinds = result.attachments.map((a) => describeAttachment(a as unknown as Record<string, unknown>));
  return `[${result.attachments.length} non-text item${result.attachments.length === 1 ? '' : 's'} (${kinds.join(', ')}) saved to ${MCP_RESULT_FILE}; the user can open ${result.attachments.length === 1 ? 'it' : 'them'} in Cairn.]`;
}

function describeAttachment(a: Record<string, unknown>): string {
  const type = typeof a.type === 'string' ? a.type : 'item';
  const mime = typeof a.mimeType === 'string' ? a.mimeType : null;
  return mime ? `${type} ${mime}` : type;
}
