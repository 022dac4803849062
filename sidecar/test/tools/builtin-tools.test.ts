import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { askUserQuestionTool } from '../../src/tools/builtin/ask-user-question';
import { builtinTools } from '../../src/tools/builtin/index';
import { toolInputJsonSchema } from '../../src/tools/tool';
import { makeContext, runTool } from './tool-context';

describe('builtinTools', () => {
  it('lists the tools in order, with the model-facing inputs', () => {
    const tools = builtinTools();
    expect(tools.map((t) => t.name)).toEqual([
      'Bash',
      'Exec',
      'Read',
      'Write',
      'Edit',
      'Glob',
      'Grep',
      'AskUserQuestion',
    ]);
    const inputs = Object.fromEntries(
      tools.map((t) => {
        const schema = toolInputJsonSchema(t) as {
          properties: Record<string, { description?: string }>;
          required?: string[];
        };
        for (const [field, prop] of Object.entries(schema.properties)) {
          expect(prop.description, `${t.name}.${field} needs a description`).toBeTruthy();
        }
        return [t.name, { fields: Object.keys(schema.properties), required: schema.required ?? [] }];
      }),
    );
    expect(inputs).toEqual({
      Bash: { fields: ['command', 'timeout', 'is_wait'], required: ['command'] },
      Exec: { fields: ['program', 'args', 'timeout', 'is_wait'], required: ['program', 'args'] },
      Read: { fields: ['path', 'offset', 'limit'], required: ['path'] },
      Write: { fields: ['path', 'content'], required: ['path', 'content'] },
      Edit: {
        fields: ['path', 'old_string', 'new_string', 'replace_all'],
        required: ['path', 'old_string', 'new_string'],
      },
      Glob: { fields: ['pattern', 'path'], required: ['pattern'] },
      Grep: { fields: ['pattern', 'path', 'glob'], required: ['pattern'] },
      AskUserQuestion: { fields: ['question', 'options'], required: ['question'] },
    });
  });

  it('flags side effects and project needs', () => {
    const flags = Object.fromEntries(builtinTools().map((t) => [t.name, [t.sideEffects, t.needsProject]]));
    expect(flags).toEqual({
      Bash: [true, true],
      Exec: [true, true],
      Read: [false, true],
      Write: [true, true],
      Edit: [true, true],
      Glob: [false, true],
      Grep: [false, true],
      AskUserQuestion: [false, false],
    });
  });

  it('runs Bash and Exec in the background, and lets their scripts call tools; nothing else', () => {
    const runtime = Object.fromEntries(
      builtinTools().map((t) => [t.name, [t.background ?? null, t.scripts ?? false]]),
    );
    expect(runtime).toEqual({
      Bash: ['tool', true],
      Exec: ['tool', true],
      Read: [null, false],
      Write: [null, false],
      Edit: [null, false],
      Glob: [null, false],
      Grep: [null, false],
      AskUserQuestion: [null, false],
    });
  });

  it('rejects malformed input through the schemas', () => {
    const [bash] = builtinTools();
    expect(() => bash!.inputSchema.parse({})).toThrow(z.ZodError);
  });
});

describe('AskUserQuestion', () => {
  it('asks through the context and returns the answer', async () => {
    const ctx = makeContext({ projectRoot: null, answer: 'Use PostgreSQL' });
    const result = await runTool(
      askUserQuestionTool,
      { question: 'Which database?', options: ['SQLite', 'PostgreSQL'] },
      ctx,
    );
    expect(result).toEqual({ content: 'The user answered: Use PostgreSQL' });
    expect(ctx.questions).toEqual([{ question: 'Which database?', options: ['SQLite', 'PostgreSQL'] }]);
  });

  it('passes null when there are no options', async () => {
    const ctx = makeContext({ projectRoot: null });
    await runTool(askUserQuestionTool, { question: 'Go ahead?' }, ctx);
    expect(ctx.questions).toEqual([{ question: 'Go ahead?', options: null }]);
  });
});
