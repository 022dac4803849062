import { describe, expect, it } from 'vitest';
import { hasMcpResultFile } from '../../src/components/mcp/McpResultDownload';

describe('the "Download result files" link', () => {
  it('is offered for an MCP call whose result says it saved mcp_result.json, and only then', () => {
    const note =
      '[1 non-text item (image image/png) saved to mcp_result.json; the user can open it in Cairn.]';
    expect(hasMcpResultFile('mcp__everything__get-tiny-image', note)).toBe(true);
    expect(hasMcpResultFile('mcp__everything__echo', 'Echo: hi')).toBe(false);
    expect(hasMcpResultFile('mcp__everything__echo', null)).toBe(false);
    // A built-in tool that merely prints the file name is not an MCP call.
    expect(hasMcpResultFile('Bash', 'cat mcp_result.json')).toBe(false);
  });
});
