import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MimeBundle } from '../../src/kernels/driver-messages';
import { KernelExitedError } from '../../src/kernels/kernel-exit';
import { KernelProcess } from '../../src/kernels/kernel-process';
import { makeTempDir, removeDir, waitFor } from '../tools/tool-context';
import { DRIVER_PATH, FLAVOURS, kernelEnv, recordingLogger } from './kernel-support';

/**
 * Python for a cell that plays a hostile user: `forge(line)` writes a line straight onto the driver's channel
 * (its private dup of the original stdout, found as the driver's Channel object: any user code can do this),
 * `forge_raw(data)` bytes as they are.
 */
const FORGE = [
  'import gc, json, os, select',
  'channel_fd = next(o.out_fd for o in gc.get_objects() if type(o).__name__ == "Channel" and hasattr(o, "out_fd"))',
  'def forge(line):',
  '    forge_raw(line.encode() + b"\\n")',
  'def forge_raw(data):',
  '    view = memoryview(data)',
  '    while view:',
  '        try:',
  '            view = view[os.write(channel_fd, view):]',
  '        except BlockingIOError:  # the driver writes its channel without blocking',
  '            select.select([], [channel_fd], [])',
].join('\n');

describe.each(FLAVOURS)('KernelProcess limits with the $label', (flavour) => {
  let dir: string;
  const started: KernelProcess[] = [];
  const start = async (opts: { maxLineBytes?: number } = {}) => {
    const logger = recordingLogger();
    const kernel = await KernelProcess.start({
      python: flavour.python,
      cwd: dir,
      env: kernelEnv(),
      driverPath: DRIVER_PATH,
      ipython: flavour.ipython,
      logger,
      ...opts,
    });
    started.push(kernel);
    return { kernel, logger };
  };

  beforeAll(async () => {
    dir = await makeTempDir('cairn-kernel-limits-');
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((k) => k.kill()));
  });
  afterAll(async () => {
    await removeDir(dir);
  });

  it('delivers a 20 MB display line whole', async () => {
    const { kernel } = await start();
    const displays: MimeBundle[] = [];
    const big = '{"type": "display", "id": "exec_big", "data": {"text/plain": "y" * (20 * 1000 * 1000)}}';
    const result = await kernel.execute(
      `${FORGE}\nforge(json.dumps(${big}))`,
      { onDisplay: (data) => displays.push(data) },
      'exec_big',
    );
    expect(result.success).toBe(true);
    expect(displays).toHaveLength(1);
    const text = displays[0]?.['text/plain'] ?? '';
    expect(text.length).toBe(20_000_000);
    expect(text === 'y'.repeat(20_000_000)).toBe(true);
  }, 60_000);

  it('ends a cell whose result line is over 64 MiB with a clear error, and the kernel stays usable', async () => {
    const { kernel, logger } = await start();
    await kernel.execute('kept = 5');
    // The driver clips values itself, so the cell writes the oversized result onto the channel.
    const huge =
      '{"type": "result", "id": "exec_huge", "success": True, "execution_time_ms": 1,' +
      ' "return_value": {"text/plain": "x" * (70 * 1024 * 1024)}}';
    const result = await kernel.execute(`${FORGE}\nforge(json.dumps(${huge}))`, {}, 'exec_huge');
    expect(result.success).toBe(false);
    expect(result.returnValue).toBeNull();
    expect(result.error?.type).toBe('KernelProtocolError');
    expect(result.error?.message).toMatch(/result was larger than 64 MiB/);
    expect(logger.lines.some((l) => l.msg.includes('over the size limit'))).toBe(true);

    // The forged result ended the cell early; until the cell itself is done the driver answers KernelBusy.
    let next: Awaited<ReturnType<KernelProcess['execute']>> | undefined;
    await waitFor(async () => {
      next = await kernel.execute('kept + 1');
      return next.error?.type !== 'KernelBusy';
    }, 30_000);
    expect(next?.success).toBe(true);
    expect(next?.returnValue?.['text/plain']).toBe('6');
  }, 120_000);

  it('fails a cell whose display is over the limit when it ends, and runs the next cell', async () => {
    const { kernel } = await start({ maxLineBytes: 1024 * 1024 });
    let stdout = '';
    const displays: MimeBundle[] = [];
    const result = await kernel.execute(
      "class Big:\n    def _repr_html_(self):\n        return 'h' * (2 * 1024 * 1024)\ndisplay(Big())\nprint('after')\n7",
      { onDisplay: (data) => displays.push(data), onStream: (_n, text) => (stdout += text) },
    );
    expect(displays).toEqual([]);
    expect(stdout).toBe('after\n'); // the cell ran on: host and driver stay in step
    expect(result.success).toBe(false);
    expect(result.error?.message).toMatch(/display output was larger than 1 MiB/);

    const next = await kernel.execute('8');
    expect(next.returnValue?.['text/plain']).toBe('8');
  });

  it('delivers stream text with newlines, multi-byte characters and message-like text exactly', async () => {
    const { kernel, logger } = await start();
    const out = { stdout: '', stderr: '' };
    const piece = 'line\n\n{"type": "result", "id": "x"}\né € 😀 \r\t\x00 end\n';
    // Over 256K characters: several stream messages, each its own raw payload, cut wherever the driver cuts.
    const result = await kernel.execute(
      `import sys\npiece = ${JSON.stringify(piece)}\nprint(piece * 20000, end='')\nsys.stderr.write('\\udc80!')\n7`,
      {
        onStream: (name, text) => {
          out[name] += text;
        },
      },
    );
    expect(result.returnValue?.['text/plain']).toBe('7');
    expect(out.stdout.length).toBe(piece.length * 20000);
    expect(out.stdout === piece.repeat(20000)).toBe(true);
    expect(out.stderr).toBe('\\udc80!'); // a lone surrogate cannot be UTF-8: it comes as its escape
    expect(logger.lines.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')(
    'skips forged stream text announced over the limit, staying in step with the driver',
    async () => {
      const { kernel, logger } = await start({ maxLineBytes: 1024 * 1024 });
      let stdout = '';
      const code = [
        FORGE,
        // Inside the skipped text: a line that would end the cell if it were read as a message.
        'inside = b"forged\\n" + json.dumps({"type": "result", "id": "exec_skip", "success": True, "execution_time_ms": 1}).encode() + b"\\n"',
        'payload = inside + b"z" * (2 * 1024 * 1024)',
        'forge(json.dumps({"type": "stream", "id": "exec_skip", "name": "stdout", "bytes": len(payload)}))',
        'forge_raw(payload)',
        "print('after')",
        '8',
      ].join('\n');
      const result = await kernel.execute(code, { onStream: (_n, text) => (stdout += text) }, 'exec_skip');
      expect(result.success).toBe(true);
      expect(result.returnValue?.['text/plain']).toBe('8'); // the cell's own result, not the forged one
      expect(stdout).toBe('after\n');
      const over = logger.lines.find((l) => l.msg.includes('over the size limit'));
      expect(over?.fields).toMatchObject({ message_type: 'stream', line_bytes: 2 * 1024 * 1024 + 86 });
      expect((await kernel.execute('9')).returnValue?.['text/plain']).toBe('9');
    },
  );

  it.skipIf(process.platform === 'win32')(
    'drops stream text cut short when the driver exits, and reports the exit',
    async () => {
      const { kernel, logger } = await start();
      const seen: string[] = [];
      const code = [
        FORGE,
        'forge(json.dumps({"type": "stream", "id": "exec_cut", "name": "stdout", "bytes": 100}))',
        'forge_raw(b"partial")',
        'os._exit(3)',
      ].join('\n');
      await expect(
        kernel.execute(code, { onStream: (_n, text) => seen.push(text) }, 'exec_cut'),
      ).rejects.toThrow(KernelExitedError);
      expect(seen).toEqual([]);
      const truncated = logger.lines.find((l) => l.msg.includes('ended inside a message'));
      expect(truncated?.fields).toMatchObject({ received_bytes: 7 });
      expect(String(truncated?.fields?.head)).toContain('"exec_cut"');
    },
  );

  it.skipIf(process.platform === 'win32')(
    'drops forged MIME types and other executions’ messages, and logs bad lines clipped',
    async () => {
      const { kernel, logger } = await start();
      const displays: MimeBundle[] = [];
      const code = [
        FORGE,
        "svg = \"<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>\"",
        'forge(json.dumps({"type": "display", "id": "exec_forged", "data": {"text/plain": "forged", "image/svg+xml": svg}}))',
        'forge(json.dumps({"type": "display", "id": "exec_forged", "data": {"image/png": "<not base64>"}}))',
        'forge(json.dumps({"type": "display", "id": "exec_someone_else", "data": {"text/plain": "other"}}))',
        'forge("not json " + "z" * 100000)',
        'forge(json.dumps({"type": "log", "level": "warning", "message": "m" * 100000}))',
        '"done"',
      ].join('\n');
      const result = await kernel.execute(code, { onDisplay: (data) => displays.push(data) }, 'exec_forged');

      expect(result.success).toBe(true);
      // The forged line did arrive (its text/plain is there), without the SVG; the other id's never did.
      expect(displays).toEqual([{ 'text/plain': 'forged' }]);
      expect(JSON.stringify(displays)).not.toContain('svg');
      const dropped = logger.lines.filter((l) => l.msg.includes('MIME types'));
      expect(dropped.map((l) => l.fields?.mime_types)).toEqual([['image/svg+xml'], ['image/png']]);
      expect(logger.lines.some((l) => l.msg.includes('bad line'))).toBe(true);
      expect(logger.lines.some((l) => l.msg === 'kernel driver log')).toBe(true);
      for (const line of logger.lines) expect(JSON.stringify(line).length).toBeLessThan(1_500);

      expect((await kernel.execute('1 + 1')).returnValue?.['text/plain']).toBe('2');
    },
  );
});
