import { PassThrough } from 'node:stream';

/** A writable stream that keeps what was written to it, for what a CLI printer prints. */
export function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return { stream, text: () => text };
}
