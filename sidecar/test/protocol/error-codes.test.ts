import { describe, expect, it } from 'vitest';
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
});
