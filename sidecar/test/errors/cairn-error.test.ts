import { describe, expect, it } from 'vitest';
import { CairnError } from '../../src/errors';
import { SERVER_ERROR_CODES } from '../../src/protocol';

// errors.ts is a leaf above protocol: its use of the closed code set is tested here, not with the set.
describe('CairnError, the error that crosses the wire', () => {
  it('gives every code the server sends a status, and refuses others at compile time', () => {
    for (const code of SERVER_ERROR_CODES)
      expect(new CairnError(code, 'm').status).toBeGreaterThanOrEqual(400);
    // @ts-expect-error: a code outside the closed set does not compile.
    expect(new CairnError('no_such_code', 'm').status).toBeUndefined();
    // @ts-expect-error: client-side codes are not the server's to send.
    expect(new CairnError('network', 'm').status).toBeUndefined();
  });

  it('carries details across the wire', () => {
    expect(new CairnError('conflict', 'm', { details: { paths: ['a'] } }).toJSON()).toEqual({
      code: 'conflict',
      message: 'm',
      details: { paths: ['a'] },
    });
  });
});
