import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_ROOT } from '../../src/config/app-paths';
import { defaultDriverPath } from '../../src/kernels/driver-path';
import { tempDir } from '../support/harness';

const proc = process as { resourcesPath?: string };

describe('defaultDriverPath', () => {
  afterEach(() => {
    delete proc.resourcesPath;
  });

  it('is the source file when not packaged', () => {
    expect(defaultDriverPath()).toBe(path.join(APP_ROOT, 'sidecar/src/kernels/driver/cairn_kernel.py'));
    expect(fs.existsSync(defaultDriverPath())).toBe(true);
  });

  it('is the resource beside app.asar when packaged', () => {
    const resources = tempDir('resources');
    fs.mkdirSync(path.join(resources, 'kernel'));
    fs.writeFileSync(path.join(resources, 'kernel', 'cairn_kernel.py'), '# shipped\n');
    proc.resourcesPath = resources;
    expect(defaultDriverPath()).toBe(path.join(resources, 'kernel', 'cairn_kernel.py'));
    fs.rmSync(resources, { recursive: true, force: true });
  });
});
