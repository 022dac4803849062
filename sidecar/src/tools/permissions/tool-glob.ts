import { globSource } from './glob-source';

/** Whether a rule's tool is a glob over names (`mcp__github__*`) rather than one name. */
export function isToolGlob(tool: string): boolean {
  return tool.includes('*') || tool.includes('?');
}

/** Whether a rule's tool (a name, or a glob where `*` is any characters and `?` one) names `tool`. */
export function toolMatches(ruleTool: string, tool: string): boolean {
  if (!isToolGlob(ruleTool)) return ruleTool === tool;
  return new RegExp(`^${globSource(ruleTool, { any: '.*', one: '.' })}$`, 's').test(tool);
}
