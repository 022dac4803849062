/**
 * Cairn's public client: connect() for scripts, and beneath it the typed HTTP API and the event stream
 * the renderer and the CLI use. Browser and Node alike: nothing here imports a Node module.
 */
export * from './connect';
export * from './event-stream';
export * from './http-client';
export * from './request-id';
export * from './turn-handle';
