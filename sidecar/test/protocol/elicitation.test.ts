// The check of an accepted MCP form against its restricted schema (the sidecar's 400, the terminal's
// field-by-field check): every field kind, formats, bounds, defaults filled.
import { describe, expect, it } from 'vitest';
import {
  checkElicitationContent,
  elicitationDefaults,
  elicitationFields,
} from '../../src/protocol/elicitation';

const schema = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});
const problem = (prop: Record<string, unknown>, value: unknown) => {
  const checked = checkElicitationContent(schema({ f: prop }), { f: value });
  return checked.ok ? null : checked.errors.f;
};

describe('elicitation forms', () => {
  it('reads every field kind, titled options with their const values, legacy enumNames', () => {
    const fields = elicitationFields(
      schema(
        {
          s: { type: 'string', format: 'uri', title: 'Site' },
          i: { type: 'integer', minimum: 1 },
          b: { type: 'boolean', default: false },
          e: { type: 'string', enum: ['x', 'y'], enumNames: ['Ex', 'Why'] },
          t: { type: 'string', oneOf: [{ const: 'a', title: 'A!' }] },
          m: { type: 'array', items: { anyOf: [{ const: 'p', title: 'P!' }] }, default: ['p'] },
        },
        ['i'],
      ),
    );
    expect(fields.map((f) => [f.name, f.kind, f.label, f.required])).toEqual([
      ['s', 'string', 'Site', false],
      ['i', 'integer', 'i', true],
      ['b', 'boolean', 'b', false],
      ['e', 'select', 'e', false],
      ['t', 'select', 't', false],
      ['m', 'multiselect', 'm', false],
    ]);
    expect(fields[3]).toMatchObject({
      options: [
        { value: 'x', label: 'Ex' },
        { value: 'y', label: 'Why' },
      ],
    });
    expect(fields[4]).toMatchObject({ options: [{ value: 'a', label: 'A!' }] });
    expect(fields[5]).toMatchObject({ options: [{ value: 'p', label: 'P!' }], default: ['p'] });
  });

  it('checks strings, their formats and lengths', () => {
    expect(problem({ type: 'string', maxLength: 2 }, 'abc')).toBe('must be at most 2 characters');
    expect(problem({ type: 'string' }, 3)).toBe('must be a string');
    expect(problem({ type: 'string', format: 'email' }, 'a@b.co')).toBeNull();
    for (const bad of ['a@b', '@b.co', 'a@@b.co', 'a b@c.de', 'a@b.', 'a@.b', `a@${'x'.repeat(50_000)}`]) {
      expect(problem({ type: 'string', format: 'email' }, bad), bad.slice(0, 20)).toBe(
        'must be an email address',
      );
    }
    expect(problem({ type: 'string', format: 'uri' }, 'not a uri')).toMatch(/^must be a URI/);
    expect(problem({ type: 'string', format: 'uri' }, 'https://example.org/x')).toBeNull();
    expect(problem({ type: 'string', format: 'date' }, '2026-02-30x')).toMatch(/^must be a date/);
    expect(problem({ type: 'string', format: 'date' }, '2026-02-03')).toBeNull();
    // Days the calendar does not have (Date.parse rolls them over) and times past the clock.
    expect(problem({ type: 'string', format: 'date' }, '2024-02-31')).toMatch(/^must be a date/);
    expect(problem({ type: 'string', format: 'date' }, '2023-02-29')).toMatch(/^must be a date/);
    expect(problem({ type: 'string', format: 'date' }, '2024-02-29')).toBeNull();
    expect(problem({ type: 'string', format: 'date-time' }, '2024-04-31T10:00:00Z')).toMatch(
      /^must be a date and time/,
    );
    expect(problem({ type: 'string', format: 'date-time' }, '2024-04-30T24:00:00Z')).toMatch(
      /^must be a date and time/,
    );
    expect(problem({ type: 'string', format: 'date-time' }, '2026-02-03T10:00')).toMatch(
      /^must be a date and time/,
    );
    expect(problem({ type: 'string', format: 'date-time' }, '2026-02-03T10:00:00+08:00')).toBeNull();
  });

  it('checks numbers, booleans and choices', () => {
    expect(problem({ type: 'number', minimum: 1 }, 0.5)).toBe('must be at least 1');
    expect(problem({ type: 'number', maximum: 1 }, 2)).toBe('must be at most 1');
    expect(problem({ type: 'number' }, '1')).toBe('must be a number');
    expect(problem({ type: 'integer' }, 2.5)).toBe('must be a whole number');
    expect(problem({ type: 'boolean' }, 'yes')).toBe('must be true or false');
    expect(problem({ type: 'string', oneOf: [{ const: 'a', title: 'A' }] }, 'A')).toBe('must be one of: a');
    const multi = { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 };
    expect(problem(multi, ['a', 'b', 'c'])).toBe('must have at most 2 choices');
    expect(problem(multi, ['a', 'a'])).toBe('must not repeat a choice');
    expect(problem(multi, ['d'])).toBe('must be a list of: a, b, c');
    expect(problem(multi, 'a')).toBe('must be a list of: a, b, c');
  });

  it('fills omitted fields that have a default, requires the rest, and refuses unknown ones', () => {
    const form = schema(
      {
        name: { type: 'string' },
        age: { type: 'integer', default: 30 },
        tags: { type: 'array', items: { type: 'string', enum: ['a'] }, default: ['a'] },
        note: { type: 'string' },
      },
      ['name', 'age'],
    );
    expect(elicitationDefaults(form)).toEqual({ age: 30, tags: ['a'] });
    expect(checkElicitationContent(form, { name: 'Ann' })).toEqual({
      ok: true,
      content: { name: 'Ann', age: 30, tags: ['a'] },
    });
    expect(checkElicitationContent(form, { name: 'Ann', age: 4, tags: [] })).toEqual({
      ok: true,
      content: { name: 'Ann', age: 4, tags: [] },
    });
    expect(checkElicitationContent(form, { note: null, other: 1 })).toEqual({
      ok: false,
      errors: { name: 'is required', other: 'is not a field of this form' },
    });
  });

  it('reads only the answer’s own fields: one named like an Object member left empty is empty', () => {
    const form = schema(
      { constructor: { type: 'string' }, toString: { type: 'string' }, valueOf: { type: 'number' } },
      ['valueOf'],
    );
    expect(checkElicitationContent(form, { valueOf: 2 })).toEqual({ ok: true, content: { valueOf: 2 } });
    expect(checkElicitationContent(form, { constructor: 'x' })).toEqual({
      ok: false,
      errors: { valueOf: 'is required' },
    });
  });
});
