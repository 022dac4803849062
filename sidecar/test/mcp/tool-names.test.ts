import { describe, expect, it } from 'vitest';
import { AGENT_TOOL_NAME, agentToolNames, nameOwner, type ServerToolNames } from '../../src/mcp/tool-names';

function all(map: Map<string, Map<string, string>>): string[] {
  return [...map.values()].flatMap((m) => [...m.values()]);
}

function expectValidAndUnique(map: Map<string, Map<string, string>>): void {
  const names = all(map);
  for (const n of names) expect(n).toMatch(AGENT_TOOL_NAME);
  expect(new Set(names).size).toBe(names.length);
}

describe('agentToolNames', () => {
  it('names a tool mcp__<server>__<tool> when that is valid and unique', () => {
    const map = agentToolNames([{ serverId: 's1', serverName: 'github', tools: ['create_issue', 'search'] }]);
    expect(map.get('s1')?.get('create_issue')).toBe('mcp__github__create_issue');
    expect(map.get('s1')?.get('search')).toBe('mcp__github__search');
  });

  it('replaces characters the API refuses', () => {
    const map = agentToolNames([
      { serverId: 's1', serverName: 'My Files!', tools: ['files.read', 'ünï/cødé'] },
    ]);
    expect(map.get('s1')?.get('files.read')).toBe('mcp__My_Files___files_read');
    expect(map.get('s1')?.get('ünï/cødé')).toBe('mcp__My_Files____n__c_d_');
    expectValidAndUnique(map);
  });

  it('gives distinct names to two servers with the same name and the same tools, keeping the tool name', () => {
    const servers: ServerToolNames[] = [
      { serverId: 'a', serverName: 'fs', tools: ['read_file', 'write_file'] },
      { serverId: 'b', serverName: 'fs', tools: ['read_file', 'list'] },
    ];
    const map = agentToolNames(servers);
    expectValidAndUnique(map);
    const a = map.get('a')?.get('read_file') ?? '';
    const b = map.get('b')?.get('read_file') ?? '';
    expect(a).not.toBe(b);
    expect(a).toMatch(/^mcp__fs__read_file_[0-9a-f]{8}$/);
    expect(b).toMatch(/^mcp__fs__read_file_[0-9a-f]{8}$/);
    // Names that do not clash stay plain.
    expect(map.get('a')?.get('write_file')).toBe('mcp__fs__write_file');
    expect(map.get('b')?.get('list')).toBe('mcp__fs__list');
  });

  it('separates tools that only differ in characters that get replaced', () => {
    const map = agentToolNames([{ serverId: 's', serverName: 'x', tools: ['a.b', 'a_b', 'a b'] }]);
    expectValidAndUnique(map);
    for (const [tool, name] of map.get('s') ?? []) {
      expect(name.startsWith('mcp__x__a_b_')).toBe(true);
      expect(tool).toBeTruthy();
    }
  });

  it('shortens long names to 64 characters with a hash, keeping as much of the tool name as fits', () => {
    const longTool = `get_${'very_'.repeat(20)}long_tool`;
    const longServer = 'a-server-with-a-really-long-name-indeed';
    const map = agentToolNames([
      { serverId: 's1', serverName: longServer, tools: [longTool, `${longTool}_2`] },
      { serverId: 's2', serverName: 'ok', tools: [longTool] },
    ]);
    expectValidAndUnique(map);
    const n1 = map.get('s1')?.get(longTool) ?? '';
    expect(n1.length).toBe(64);
    expect(n1).toMatch(/^mcp__a-server-with-a-__get_very_very_.*_[0-9a-f]{8}$/);
    // The two long tools of s1 share their first 64 characters but still get different names.
    expect(map.get('s1')?.get(`${longTool}_2`)).not.toBe(n1);
    expect(map.get('s2')?.get(longTool)).toMatch(/^mcp__ok__get_very_/);
  });

  it('is stable: the same input gives the same names, whatever the order of servers and tools', () => {
    const servers: ServerToolNames[] = [
      { serverId: 'a', serverName: 'fs', tools: ['read', 'write', 'x'.repeat(80)] },
      { serverId: 'b', serverName: 'fs', tools: ['read', 'list'] },
      { serverId: 'c', serverName: 'git hub', tools: ['search', 'read'] },
    ];
    const first = agentToolNames(servers);
    const again = agentToolNames(structuredClone(servers));
    const reversed = agentToolNames(
      [...servers].reverse().map((s) => ({ ...s, tools: [...s.tools].reverse() })),
    );
    const flat = (m: Map<string, Map<string, string>>) =>
      [...m]
        .map(([id, tools]) => [id, [...tools].sort()])
        .sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    expect(flat(again)).toEqual(flat(first));
    expect(flat(reversed)).toEqual(flat(first));
    expectValidAndUnique(first);
  });

  it("settles a tool literally named like another one's hashed name", () => {
    // Work out the hashed name b's read gets, then give a third server a tool that produces exactly it.
    const base: ServerToolNames[] = [
      { serverId: 'a', serverName: 'fs', tools: ['read'] },
      { serverId: 'b', serverName: 'fs', tools: ['read'] },
    ];
    const hashed = agentToolNames(base).get('b')?.get('read') ?? '';
    const tricky = hashed.slice('mcp__fs__'.length); // "read_<hash>"
    const map = agentToolNames([...base, { serverId: 'c', serverName: 'fs', tools: [tricky] }]);
    expectValidAndUnique(map);
    expect(map.get('c')?.get(tricky)).toBeTruthy();
  });

  it('never moves a name given earlier in the session to another tool, when tool lists change', () => {
    const given = new Map<string, string>();
    const give = (map: Map<string, Map<string, string>>) => {
      for (const [server, tools] of map)
        for (const [tool, name] of tools) given.set(name, nameOwner(server, tool));
      return map;
    };
    // b's read is hashed (a has one too); then a hostile server z, first by id, adds a tool named exactly that.
    const base: ServerToolNames[] = [
      { serverId: 'b', serverName: 'fs', tools: ['read'] },
      { serverId: 'c', serverName: 'fs', tools: ['read'] },
    ];
    const first = give(agentToolNames(base, given));
    const hashed = first.get('c')!.get('read')!;
    const tricky = hashed.slice('mcp__fs__'.length);
    const changed = [...base, { serverId: 'a', serverName: 'fs', tools: [tricky] }];
    // Without the session's names, the lower id wins the name the model has been calling c's read by.
    expect(agentToolNames(changed).get('a')!.get(tricky)).toBe(hashed);
    const next = give(agentToolNames(changed, given));
    expectValidAndUnique(next);
    expect(next.get('c')!.get('read')).toBe(hashed);
    expect(next.get('b')!.get('read')).toBe(first.get('b')!.get('read'));
    expect(next.get('a')!.get(tricky)).not.toBe(hashed);
    // A name whose tool went away is not handed to a newcomer either.
    const plain = give(agentToolNames([{ serverId: 'b', serverName: 'x', tools: ['go'] }], given));
    expect(plain.get('b')!.get('go')).toBe('mcp__x__go');
    const after = agentToolNames([{ serverId: 'd', serverName: 'x', tools: ['go'] }], given);
    expect(after.get('d')!.get('go')).not.toBe('mcp__x__go');
    expect(after.get('d')!.get('go')).toMatch(AGENT_TOOL_NAME);
  });

  it('handles many servers and tools without a clash', () => {
    const servers: ServerToolNames[] = Array.from({ length: 20 }, (_, i) => ({
      serverId: `id-${i}`,
      serverName: i % 2 ? 'same' : `server ${i}`,
      tools: Array.from({ length: 50 }, (_, j) => `tool.${j % 25}${j >= 25 ? '!' : ''}`),
    }));
    const map = agentToolNames(servers);
    expectValidAndUnique(map);
    expect(all(map).length).toBe(20 * 50);
  });

  it('lists a server without tools, ignores duplicate tool names and handles an empty server name', () => {
    const map = agentToolNames([
      { serverId: 'e', serverName: 'empty', tools: [] },
      { serverId: 'd', serverName: '', tools: ['t', 't'] },
    ]);
    expect(map.get('e')?.size).toBe(0);
    expect(map.get('d')?.size).toBe(1);
    expect(map.get('d')?.get('t')).toBe('mcp_____t');
    expectValidAndUnique(map);
  });
});
