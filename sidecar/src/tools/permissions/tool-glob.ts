/** Whether a rule's tool is a glob over names (`mcp__github__*`) rather than one name. */
export function isToolGlob(tool: string): boolean {
  return tool.includes('*') || tool.includes('?');
}

/** Whether a rule's tool (a name, or a glob where `*` is any characters and `?` one) names `tool`. */
export function toolMatches(ruleTool: string, tool: string): boolean {
  if (!isToolGlob(ruleTool)) return ruleTool === tool;
  const source = [...ruleTool]
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`, 's').test(tool);
}
