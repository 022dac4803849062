import { describe, expect, it } from 'vitest';
import { buildSystemPrompt } from '../../src/agent/system-prompt';

describe('system prompt', () => {
  it('tells the model about Git Bash and .cmd programs on Windows only', async () => {
    const windows = await buildSystemPrompt({
      projectRoot: 'C:\\work\\app',
      toolNames: ['Bash'],
      platform: 'win32',
    });
    expect(windows).toMatch(/Git for Windows/);
    expect(windows).toContain('"cmd.exe"');
    const linux = await buildSystemPrompt({
      projectRoot: '/work/app',
      toolNames: ['Bash'],
      platform: 'linux',
    });
    expect(linux).not.toMatch(/Git for Windows/);
  });

  it('dates the conversation in local time', async () => {
    // 23:30 local on the 1st is the 1st, whatever UTC says.
    const late = new Date(2026, 0, 1, 23, 30);
    const prompt = await buildSystemPrompt({ projectRoot: null, toolNames: [], date: late });
    expect(prompt).toContain('Today is 2026-01-01.');
  });
});
