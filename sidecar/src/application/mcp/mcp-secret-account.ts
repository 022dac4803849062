/** The keychain account of one secret of one server. */
export const mcpSecretAccount = (serverId: string, name: string): string => `mcp:${serverId}:${name}`;
