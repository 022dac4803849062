/**
 * A fresh request_id for a turn. crypto.randomUUID exists in Node and in browsers' secure contexts; a page
 * served over plain http on a LAN has only getRandomValues.
 */
export function newRequestId(): string {
  const { crypto } = globalThis;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
