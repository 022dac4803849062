import { randomBytes } from 'node:crypto';

/** Opaque ids with a readable prefix (`ses_…`), so a stray id in a log says what it is. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}

export function now(): string {
  return new Date().toISOString();
}
