import * as z from 'zod/mini';

/**
 * Permissions: a session's approval mode, the rules that allow, ask or deny calls before the mode decides,
 * and the verdict on one call. One schema per wire shape.
 */

/**
 * `read_only`: tools with side effects are refused; `ask`: they ask; `auto_edits`: file edits inside the
 * project run, the rest asks; `auto`: everything runs. Rules decide before the mode.
 */
export const ApprovalMode = z.enum(['read_only', 'ask', 'auto_edits', 'auto']);
export type ApprovalMode = z.infer<typeof ApprovalMode>;

export const PermissionAction = z.enum(['allow', 'ask', 'deny']);
export type PermissionAction = z.infer<typeof PermissionAction>;

/** What a rule is about: a tool name or a glob over names (`mcp__github__*`). */
const ruleTool = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'tool is required: a tool name (Bash) or a glob over names (mcp__github__*)'),
    z.maxLength(200, 'tool must be at most 200 characters'),
  );

/**
 * For Bash and Exec, a command glob over the normalised words (`npm run test *`: a last `*` means "and any
 * arguments"); for Read, Write, Edit, Glob and Grep, a path glob relative to the project (`src/**`); null
 * for every other tool, and for "any input".
 */
const rulePattern = z.nullable(
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'pattern must not be empty: send null to match any input'),
      z.maxLength(1_000, 'pattern must be at most 1000 characters'),
    ),
);

/** A rule; `project_id` and `session_id` null for a global one (a session rule is "allow for this session"). */
export const PermissionRule = z.object({
  id: z.string(),
  tool: z.string(),
  pattern: z.nullable(z.string()),
  action: PermissionAction,
  project_id: z.nullable(z.string()),
  session_id: z.nullable(z.string()),
  created_at: z.string(),
});
export type PermissionRule = z.infer<typeof PermissionRule>;

export const PermissionRuleList = z.object({ rules: z.array(PermissionRule) });
export type PermissionRuleList = z.infer<typeof PermissionRuleList>;

/** A project or session id in a request; absent or null: none. */
const optionalId = z.pipe(
  z.nullish(z.string().check(z.minLength(1))),
  z.transform((v) => v ?? null),
);

/** Without `project_id` (and `session_id`) the rule is global. */
export const CreatePermissionRuleRequest = z.strictObject({
  tool: ruleTool,
  pattern: z.pipe(
    z.optional(rulePattern),
    z.transform((v) => v ?? null),
  ),
  action: PermissionAction,
  project_id: optionalId,
  session_id: optionalId,
});
export type CreatePermissionRuleRequest = z.infer<typeof CreatePermissionRuleRequest>;

/** Changes a rule's tool, pattern or action (its scope stays). */
export const UpdatePermissionRuleRequest = z
  .strictObject({
    tool: z.optional(ruleTool),
    pattern: z.optional(rulePattern),
    action: z.optional(PermissionAction),
  })
  .check(
    z.refine(
      (v) => v.tool !== undefined || v.pattern !== undefined || v.action !== undefined,
      'give at least one of tool, pattern, action',
    ),
  );
export type UpdatePermissionRuleRequest = z.infer<typeof UpdatePermissionRuleRequest>;

/** `?project_id=` lists that project's rules (and its sessions'); `?scope=global` only the global ones. */
export const ListPermissionRulesQuery = z.object({
  project_id: z.optional(z.string().check(z.minLength(1))),
  session_id: z.optional(z.string().check(z.minLength(1))),
  scope: z.optional(z.enum(['global'])),
});
export type ListPermissionRulesQuery = z.infer<typeof ListPermissionRulesQuery>;

/**
 * What the rules (and a mode) would decide for a call: the project's and the global rules apply, and a
 * session's when `session_id` is given (its project and mode then come from the session).
 */
export const TestPermissionRequest = z.strictObject({
  tool: ruleTool,
  input: z.unknown(),
  project_id: optionalId,
  session_id: optionalId,
  /** The mode that decides when no rule does; default the session's, else `ask`. */
  approval: z.optional(ApprovalMode),
});
export type TestPermissionRequest = z.infer<typeof TestPermissionRequest>;

/** The rule an "always allow" or "always deny" would save for a call, editable before it is saved. */
export const RuleSuggestion = z.object({ tool: z.string(), pattern: z.nullable(z.string()) });
export type RuleSuggestion = z.infer<typeof RuleSuggestion>;

/** A verdict on one call: `rule_id` is the rule that decided, null when the mode did. */
export const PermissionDecision = z.object({
  decision: PermissionAction,
  rule_id: z.nullable(z.string()),
  reason: z.string(),
  suggestion: RuleSuggestion,
});
export type PermissionDecision = z.infer<typeof PermissionDecision>;

/** Why an approval asks, shown on its card: the reason, the rule (if one asked), and the rule to propose. */
export const ApprovalInfo = z.object({
  reason: z.string(),
  rule_id: z.nullable(z.string()),
  suggestion: RuleSuggestion,
});
export type ApprovalInfo = z.infer<typeof ApprovalInfo>;

/** Where an answered approval's rule is saved: this session, its project, or everywhere. */
export const RememberScope = z.enum(['session', 'project', 'global']);
export type RememberScope = z.infer<typeof RememberScope>;

/** Per project: `on` runs Bash, Exec, kernels and process workers confined to the project. */
export const SandboxSetting = z.enum(['off', 'on']);
export type SandboxSetting = z.infer<typeof SandboxSetting>;
export const SandboxNetwork = z.enum(['on', 'off']);
export type SandboxNetwork = z.infer<typeof SandboxNetwork>;
