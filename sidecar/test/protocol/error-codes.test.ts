import { describe, expect, it } from 'vitest';
import { CairnError } from '../../src/errors';
import { CLIENT_ERROR_CODES, ErrorCode, ErrorInfo, SERVER_ERROR_CODES } from '../../src/protocol';

describe('the closed set of error codes', () => {
  it('is one enum holding the codes the server sends and the ones clients make', () => {
    expect(ErrorCode.options).toEqual([...SERVER_ERROR_CODES, ...CLIENT_ERROR_CODES]);
    for (const code of ['interrupted', 'sidecar_failed', 'network', 'not_cairn', 'internal']) {
      expect(ErrorCode.options).toContain(code);
    }
  });

  it('reads an unknown code as internal and keeps the message and details', () => {
    expect(
      ErrorInfo.parse({ code: 'from_a_newer_server', message: 'kept', details: { paths: ['x'] } }),
    ).toEqual({
      code: 'internal',
      message: 'kept',
      details: { paths: ['x'] },
    });
  });

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
