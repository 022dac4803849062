import { type Tool, toolInputJsonSchema } from '../../tools/tool';
import { oneLine, pythonDocstring, trimDescription } from './python-docstring';
import { isPythonKeyword, pythonIdentifier, uniqueName } from './python-names';

type JsonSchema = Record<string, unknown>;

/** The helper a generated body calls (the prelude defines it): no parameter may take its name. */
export const CALL_HELPER = '_cairn_call';

/** One tool as a Python function: its def line and docstring, and the call its body makes. */
export interface PythonSignature {
  /** `def Name(a: str, b: int = None):` and the docstring indented under it, without a body. */
  head: string;
  /** The body's expression: `_cairn_call("Name", method, {"a": a, ...})`. */
  call: string;
}

const JSON_TYPE_HINTS: Record<string, string> = {
  string: 'str',
  integer: 'int',
  number: 'float',
  boolean: 'bool',
  array: 'list',
  object: 'dict',
};

export function pythonSignature(tool: Tool, functionName: string): PythonSignature {
  const description = trimDescription(tool.description);
  if (tool.methods && tool.methods.length > 0) {
    const methods = tool.methods.map((m) =>
      // Descriptions that only repeat "Tool method" say nothing the name does not.
      m.description && m.description !== `${tool.name} ${m.name}`
        ? `    ${m.name}: ${oneLine(m.description)}`
        : `    ${m.name}`,
    );
    const doc = `${description}\n\nCall as ${functionName}("method", name=value, ...): keyword arguments are the method's arguments.\nMethods:\n${methods.join('\n')}`;
    return {
      head: `def ${functionName}(method: str, **arguments):\n${pythonDocstring(doc, '    ')}`,
      call: `${CALL_HELPER}(${JSON.stringify(tool.name)}, method, arguments)`,
    };
  }

  const schema = toolInputJsonSchema(tool);
  const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const ordered = [...required, ...Object.keys(properties).filter((name) => !required.includes(name))];
  const taken = new Set([CALL_HELPER]);
  const params: string[] = [];
  const docLines: string[] = [];
  const passed: string[] = [];
  for (const property of ordered) {
    // JSON Schema allows `true`/`false` as a property's schema: read as no constraint.
    const prop = asSchema(properties[property]);
    const optional = !required.includes(property);
    let name = pythonIdentifier(property, 'arg');
    if (isPythonKeyword(name)) name = `${name}_`;
    name = uniqueName(name, taken);
    const hint = typeHint(prop);
    params.push(`${name}${hint ? `: ${hint}` : ''}${optional ? ' = None' : ''}`);
    passed.push(`${JSON.stringify(property)}: ${name}`);
    docLines.push(argumentLine(name, property, prop, hint, optional));
  }
  // An input without named properties (a free-form MCP schema) takes keyword arguments as they are.
  const free = ordered.length === 0 && schema.additionalProperties !== false;
  if (free) params.push('**arguments');
  const doc = docLines.length > 0 ? `${description}\n\nArgs:\n${docLines.join('\n')}` : description;
  return {
    head: `def ${functionName}(${params.join(', ')}):\n${pythonDocstring(doc, '    ')}`,
    call: `${CALL_HELPER}(${JSON.stringify(tool.name)}, None, ${free ? 'arguments' : `{${passed.join(', ')}}`})`,
  };
}

/** The Python type of a property, or null when it has none or several (shown in the docstring instead). */
function typeHint(prop: JsonSchema): string | null {
  const hints = new Set(jsonTypes(prop).map((t) => JSON_TYPE_HINTS[t]));
  const [hint] = hints;
  return hints.size === 1 && hint ? hint : null;
}

/** The JSON types a property allows (its `type`, its enum's values, or those of its anyOf/oneOf), no `null`. */
/** A schema as an object; anything else (`true`, `false`, a malformed one) says nothing. */
function asSchema(value: unknown): JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonSchema) : {};
}

function jsonTypes(schema: JsonSchema): string[] {
  const prop = asSchema(schema);
  if (typeof prop.type === 'string') return prop.type === 'null' ? [] : [prop.type];
  if (Array.isArray(prop.type)) return (prop.type as string[]).filter((t) => t !== 'null');
  if (Array.isArray(prop.enum))
    return [...new Set((prop.enum as unknown[]).map(valueType))].filter((t) => t !== 'null');
  if ('const' in prop) return [valueType(prop.const)].filter((t) => t !== 'null');
  const options = (prop.anyOf ?? prop.oneOf) as JsonSchema[] | undefined;
  return Array.isArray(options) ? [...new Set(options.flatMap(jsonTypes))] : [];
}

function valueType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** `name (str, optional): passed as "orig". One of "a", "b". The description. Default: x.` */
function argumentLine(
  name: string,
  property: string,
  prop: JsonSchema,
  hint: string | null,
  optional: boolean,
): string {
  const types = jsonTypes(prop).map((t) => JSON_TYPE_HINTS[t] ?? t);
  const kind = [hint ?? (types.length > 0 ? types.join(' or ') : null), optional ? 'optional' : null]
    .filter(Boolean)
    .join(', ');
  const parts: string[] = [];
  if (name !== property) parts.push(`Passed as ${JSON.stringify(property)}.`);
  const choices = enumValues(prop);
  if (choices) parts.push(`One of ${choices.map((v) => JSON.stringify(v)).join(', ')}.`);
  if (typeof prop.description === 'string' && prop.description.trim()) parts.push(prop.description);
  if ('default' in prop) parts.push(`Default: ${JSON.stringify(prop.default)}.`);
  return `    ${name}${kind ? ` (${kind})` : ''}: ${oneLine(parts.join(' ')) || '-'}`;
}

/** The values an enum property (or a union of consts and enums) allows, or null. */
function enumValues(prop: JsonSchema): unknown[] | null {
  if (Array.isArray(prop.enum)) return prop.enum as unknown[];
  const options = (prop.anyOf ?? prop.oneOf) as JsonSchema[] | undefined;
  if (!Array.isArray(options)) return null;
  const values = options
    .map(asSchema)
    .map((o) => ('const' in o ? [o.const] : Array.isArray(o.enum) ? o.enum : null));
  return values.every((v) => v !== null) ? (values as unknown[][]).flat() : null;
}
