import { afterAll, describe, expect, it } from 'vitest';
import { fileAndToolRows } from './file-and-tool-rows';
import { hiddenCodeRows } from './hidden-code-rows';
import { decide, makePolicyProject } from './policy-fixture';
import { shellStructureRows } from './shell-structure-rows';
import { shellWordRows } from './shell-word-rows';
import { wrapperRows } from './wrapper-rows';

// One real project folder for every row; the parser is loaded once, on the first row.
const project = makePolicyProject();
afterAll(() => project.remove());

describe('decidePermission: the decision table', () => {
  const rows = [
    ...shellStructureRows,
    ...shellWordRows(project.root),
    ...fileAndToolRows(project.root, project.outside),
    ...hiddenCodeRows,
    ...wrapperRows(project.root),
  ];

  it('has at least 80 cases', () => {
    expect(rows.length).toBeGreaterThanOrEqual(80);
  });

  it.each(rows)('%s', async (_description, tool, input, mode, rules, expected, ruleId) => {
    const decision = await decide(tool, input, mode, rules, project.root);
    expect(decision.decision, decision.reason).toBe(expected);
    if (ruleId !== undefined) expect(decision.rule_id).toBe(ruleId);
    expect(decision.reason.length).toBeGreaterThan(0);
    expect(decision.suggestion.tool).toBe(tool);
  });
});
