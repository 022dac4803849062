import { createHash } from 'node:crypto';
import { MCP_LIMITS } from '../protocol/mcp';

export interface ServerToolNames {
  serverId: string;
  serverName: string;
  tools: string[];
}

/** What the model API accepts as a tool name. */
export const AGENT_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const MAX = MCP_LIMITS.toolNameChars;
const HASH_CHARS = 8;
/** In a shortened name the server's part gives way first: the tool's own name matters more to the model. */
const SERVER_PART_MAX = 16;

function sanitize(text: string): string {
  const s = text.replace(/[^a-zA-Z0-9_-]/g, '_');
  return s === '' ? '_' : s;
}

function hash(parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, HASH_CHARS);
}

/** `mcp__<server>__<tool>` shortened to leave room for `_<hash>`. */
function hashedName(serverName: string, tool: string, suffix: string): string {
  const server = sanitize(serverName).slice(0, SERVER_PART_MAX);
  const room = MAX - 'mcp__'.length - server.length - '__'.length - 1 - suffix.length;
  return `mcp__${server}__${sanitize(tool).slice(0, Math.max(0, room))}_${suffix}`;
}

interface Entry {
  serverId: string;
  serverName: string;
  tool: string;
  name: string;
  /** Named so earlier in the session: it keeps that name. */
  kept: boolean;
}

/** Who a name was given to: one server's tool. */
export const nameOwner = (serverId: string, tool: string) => `${serverId}\u0000${tool}`;

/**
 * The names the agent calls MCP tools by: `mcp__<server>__<tool>` with characters the API refuses replaced by
 * `_`. A name that is too long, or that two tools would share (same server names, same tool names after
 * replacement), becomes a shortened form ending in a hash of the server id and the tool's name. The result
 * depends only on the set of servers and tools, not on their order, so it is stable across runs.
 *
 * `given` (agent name → nameOwner) holds the names handed out earlier in the session: a tool named before
 * keeps its name, and no name ever goes to another tool, so a tool list that changes mid-session (a
 * server's `list_changed`) cannot move a name the model has used to a different server's tool. The caller
 * adds the result to it.
 */
export function agentToolNames(
  servers: ServerToolNames[],
  given: ReadonlyMap<string, string> = new Map(),
): Map<string, Map<string, string>> {
  const earlier = new Map<string, string>();
  for (const [name, owner] of given) earlier.set(owner, name);
  const entries: Entry[] = [];
  const seen = new Set<string>();
  for (const s of servers) {
    for (const tool of s.tools) {
      const key = nameOwner(s.serverId, tool);
      if (seen.has(key)) continue;
      seen.add(key);
      entries.push({ serverId: s.serverId, serverName: s.serverName, tool, name: '', kept: false });
    }
  }

  const plain = (e: Entry) => `mcp__${sanitize(e.serverName)}__${sanitize(e.tool)}`;
  const plainCount = new Map<string, number>();
  for (const e of entries) plainCount.set(plain(e), (plainCount.get(plain(e)) ?? 0) + 1);
  for (const e of entries) {
    const p = plain(e);
    e.name =
      p.length <= MAX && plainCount.get(p) === 1
        ? p
        : hashedName(e.serverName, e.tool, hash([e.serverId, e.tool]));
    const kept = earlier.get(nameOwner(e.serverId, e.tool));
    if (kept !== undefined) {
      e.name = kept;
      e.kept = true;
    }
  }

  // A hashed name can still meet another (a tool literally named like one, or a hash collision): settle those
  // in a fixed order, so the outcome does not depend on the order servers were given in.
  // A name given earlier to another tool (one gone since) is not free either.
  for (let round = 1; round < 100; round++) {
    const salt = (e: Entry) => {
      e.name = hashedName(e.serverName, e.tool, hash([e.serverId, e.tool, String(round)]));
    };
    const byName = new Map<string, Entry[]>();
    for (const e of entries) byName.set(e.name, [...(byName.get(e.name) ?? []), e]);
    const clashes = [...byName.values()].filter((group) => group.length > 1);
    const taken = entries.filter((e) => !e.kept && given.has(e.name));
    if (clashes.length === 0 && taken.length === 0) break;
    for (const e of taken) salt(e);
    for (const group of clashes) {
      group.sort(
        (a, b) =>
          Number(b.kept) - Number(a.kept) ||
          (a.serverId === b.serverId ? cmp(a.tool, b.tool) : cmp(a.serverId, b.serverId)),
      );
      // The first (one named earlier, if any) keeps its name; the others take a salted hash.
      for (const e of group.slice(1)) if (!e.kept) salt(e);
    }
  }

  const result = new Map<string, Map<string, string>>();
  for (const e of entries) {
    let perServer = result.get(e.serverId);
    if (!perServer) {
      perServer = new Map();
      result.set(e.serverId, perServer);
    }
    perServer.set(e.tool, e.name);
  }
  for (const s of servers) if (!result.has(s.serverId)) result.set(s.serverId, new Map());
  return result;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
