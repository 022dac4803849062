import * as z from 'zod/mini';

/**
 * An MCP server's form request (elicitation, form mode) as a question carries it. The schema is the
 * specification's restricted one: a flat object of primitive properties (the SDK has already checked its
 * shape when the request came in).
 */
export const ElicitationInfo = z.object({
  server_id: z.string(),
  server_name: z.string(),
  requested_schema: z.record(z.string(), z.unknown()),
});
export type ElicitationInfo = z.infer<typeof ElicitationInfo>;

export const ELICITATION_ACTIONS = ['accept', 'decline', 'cancel'] as const;
export type ElicitationAction = (typeof ELICITATION_ACTIONS)[number];

/** What an accepted form may hold: one primitive or a list of strings per field. */
export type ElicitationValue = string | number | boolean | string[];
export type ElicitationContent = Record<string, ElicitationValue>;

export interface ElicitationOption {
  value: string;
  label: string;
}

/** One field of the form, as a form or a terminal shows it. */
export type ElicitationField = {
  name: string;
  label: string;
  description: string | null;
  required: boolean;
} & (
  | { kind: 'string'; format: 'email' | 'uri' | 'date' | 'date-time' | null; default: string | null }
  | { kind: 'number' | 'integer'; min: number | null; max: number | null; default: number | null }
  | { kind: 'boolean'; default: boolean | null }
  | { kind: 'select'; options: ElicitationOption[]; default: string | null }
  | { kind: 'multiselect'; options: ElicitationOption[]; default: string[] | null }
);

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function options(list: unknown, names?: unknown): ElicitationOption[] {
  if (!Array.isArray(list)) return [];
  const titles = Array.isArray(names) ? names : [];
  return list.flatMap((o, i): ElicitationOption[] => {
    if (typeof o === 'string') return [{ value: o, label: str(titles[i]) ?? o }];
    const c = str(obj(o).const);
    return c === null ? [] : [{ value: c, label: str(obj(o).title) ?? c }];
  });
}

/** The form's fields in the schema's order. */
export function elicitationFields(schema: Json): ElicitationField[] {
  const props = obj(schema.properties);
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [],
  );
  return Object.entries(props).map(([name, raw]): ElicitationField => {
    const p = obj(raw);
    const base = {
      name,
      label: str(p.title) ?? name,
      description: str(p.description),
      required: required.has(name),
    };
    if (p.type === 'array') {
      const items = obj(p.items);
      const d = Array.isArray(p.default) ? p.default.filter((v): v is string => typeof v === 'string') : null;
      return { ...base, kind: 'multiselect', options: options(items.enum ?? items.anyOf), default: d };
    }
    if (p.type === 'boolean')
      return { ...base, kind: 'boolean', default: typeof p.default === 'boolean' ? p.default : null };
    if (p.type === 'number' || p.type === 'integer') {
      return { ...base, kind: p.type, min: num(p.minimum), max: num(p.maximum), default: num(p.default) };
    }
    if (Array.isArray(p.enum) || Array.isArray(p.oneOf)) {
      return {
        ...base,
        kind: 'select',
        options: options(p.enum ?? p.oneOf, p.enumNames),
        default: str(p.default),
      };
    }
    const format =
      p.format === 'email' || p.format === 'uri' || p.format === 'date' || p.format === 'date-time'
        ? p.format
        : null;
    return { ...base, kind: 'string', format, default: str(p.default) };
  });
}

/** The schema's defaults, field by field (what a form starts with). */
export function elicitationDefaults(schema: Json): ElicitationContent {
  const out: ElicitationContent = {};
  for (const f of elicitationFields(schema)) if (f.default !== null) out[f.name] = f.default;
  return out;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 (what the specification's date-time is): seconds and an offset are part of it.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60)(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;

/**
 * name@domain.tld in the loose sense forms use: one @, no spaces, a dot inside the domain. Written without a
 * regular expression that could backtrack for long on a long answer.
 */
function isEmail(v: string): boolean {
  const at = v.indexOf('@');
  if (at <= 0 || at !== v.lastIndexOf('@') || /\s/.test(v)) return false;
  const domain = v.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  return dot > 0 && dot < domain.length - 1;
}

/** A day the calendar has (Date.parse takes 2024-02-31 as 2 March). */
function realDay(match: RegExpExecArray | null): boolean {
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function checkString(f: Extract<ElicitationField, { kind: 'string' }>, v: string, p: Json): string | null {
  const min = num(p.minLength);
  const max = num(p.maxLength);
  if (min !== null && v.length < min) return `must be at least ${min} characters`;
  if (max !== null && v.length > max) return `must be at most ${max} characters`;
  if (f.format === 'email' && !isEmail(v)) return 'must be an email address';
  if (f.format === 'uri') {
    try {
      new URL(v);
    } catch {
      return 'must be a URI (such as https://example.com)';
    }
  }
  if (f.format === 'date' && !realDay(DATE.exec(v))) return 'must be a date (YYYY-MM-DD)';
  if (f.format === 'date-time' && !realDay(DATE_TIME.exec(v)))
    return 'must be a date and time (YYYY-MM-DDTHH:MM:SSZ, or with an offset such as +08:00)';
  return null;
}

function checkField(f: ElicitationField, v: unknown, p: Json): string | null {
  const allowed = 'options' in f ? f.options.map((o) => o.value) : [];
  switch (f.kind) {
    case 'string':
      return typeof v === 'string' ? checkString(f, v, p) : 'must be a string';
    case 'number':
    case 'integer':
      if (typeof v !== 'number' || !Number.isFinite(v)) return 'must be a number';
      if (f.kind === 'integer' && !Number.isInteger(v)) return 'must be a whole number';
      if (f.min !== null && v < f.min) return `must be at least ${f.min}`;
      if (f.max !== null && v > f.max) return `must be at most ${f.max}`;
      return null;
    case 'boolean':
      return typeof v === 'boolean' ? null : 'must be true or false';
    case 'select':
      return typeof v === 'string' && allowed.includes(v) ? null : `must be one of: ${allowed.join(', ')}`;
    case 'multiselect': {
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || !allowed.includes(x)))
        return `must be a list of: ${allowed.join(', ')}`;
      if (new Set(v).size !== v.length) return 'must not repeat a choice';
      const min = num(p.minItems);
      const max = num(p.maxItems);
      if (min !== null && v.length < min) return `must have at least ${min} choice${min === 1 ? '' : 's'}`;
      if (max !== null && v.length > max) return `must have at most ${max} choice${max === 1 ? '' : 's'}`;
      return null;
    }
  }
}

/**
 * Checks an accepted form against its schema after filling every omitted field that has a default: the
 * content to send, or the problem with each field by name (an unknown field is one).
 */
export function checkElicitationContent(
  schema: Json,
  content: Json,
): { ok: true; content: ElicitationContent } | { ok: false; errors: Record<string, string> } {
  const fields = elicitationFields(schema);
  const props = obj(schema.properties);
  const filled: Json = { ...elicitationDefaults(schema), ...content };
  const errors: Record<string, string> = {};
  for (const name of Object.keys(filled)) {
    if (!fields.some((f) => f.name === name)) errors[name] = 'is not a field of this form';
  }
  for (const f of fields) {
    // Own properties only: a field named `constructor` or `toString` left empty is empty, not a function.
    const v = Object.hasOwn(filled, f.name) ? filled[f.name] : undefined;
    if (v === undefined || v === null) {
      delete filled[f.name];
      if (f.required) errors[f.name] = 'is required';
      continue;
    }
    const problem = checkField(f, v, obj(props[f.name]));
    if (problem) errors[f.name] = problem;
  }
  return Object.keys(errors).length > 0
    ? { ok: false, errors }
    : { ok: true, content: filled as ElicitationContent };
}
