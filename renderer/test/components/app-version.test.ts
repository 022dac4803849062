import { describe, expect, it } from 'vitest';
import pkg from '../../../package.json' with { type: 'json' };
import { APP_VERSION } from '../../src/components/App';

describe('APP_VERSION', () => {
  it('is the version in package.json, defined for tests as for the build', () => {
    expect(APP_VERSION).toBe(pkg.version);
  });
});
