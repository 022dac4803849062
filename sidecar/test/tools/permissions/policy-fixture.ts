import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ApprovalMode, PermissionAction, PermissionRule } from '../../../src/protocol';
import { decidePermission } from '../../../src/tools/permissions/permission-policy';

/**
 * A real project folder for the permission tests: src/, secrets/, a README, a link into secrets/ and a
 * link out of the project. Made once per test file (the policy only reads it).
 */
export function makePolicyProject(): { root: string; outside: string; remove: () => void } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-policy-')));
  const root = path.join(base, 'project');
  const outside = path.join(base, 'outside');
  for (const dir of [path.join(root, 'src'), path.join(root, 'secrets'), outside]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export {};\n');
  fs.writeFileSync(path.join(root, 'secrets', 'key.pem'), 'secret\n');
  fs.writeFileSync(path.join(root, 'README.md'), '# p\n');
  fs.writeFileSync(path.join(outside, 'x.txt'), 'x\n');
  if (process.platform !== 'win32') {
    fs.symlinkSync(path.join(root, 'secrets'), path.join(root, 'keys'));
    fs.symlinkSync(outside, path.join(root, 'out-link'));
  }
  return { root, outside, remove: () => fs.rmSync(base, { recursive: true, force: true }) };
}

let counter = 0;

/** A rule as the store gives it; `scope` puts it on a project or leaves it global. */
export function rule(
  id: string,
  tool: string,
  pattern: string | null,
  action: PermissionAction,
  scope: 'global' | 'project' = 'global',
): PermissionRule {
  counter += 1;
  return {
    id,
    tool,
    pattern,
    action,
    project_id: scope === 'project' ? 'proj_1' : null,
    session_id: null,
    created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, counter)).toISOString(),
  };
}

/** The builtin tools without side effects (as their definitions say). */
const WITHOUT_SIDE_EFFECTS = new Set(['Read', 'Glob', 'Grep']);

export function decide(
  tool: string,
  input: unknown,
  mode: ApprovalMode,
  rules: readonly PermissionRule[],
  projectRoot: string | null,
) {
  return decidePermission({
    tool,
    input,
    mode,
    sideEffects: !WITHOUT_SIDE_EFFECTS.has(tool),
    projectRoot,
    rules,
  });
}
