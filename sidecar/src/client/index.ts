/**
 * Cairn's public client: connect() for scripts, and beneath it the typed HTTP API and the event stream
 * the renderer and the CLI use. Browser and Node alike: nothing here imports a Node module.
 */

// The wire shapes' types (CairnEvent, Turn, Session…), for scripts to name what the client returns.
export type * from '../protocol';
export * from './connect';
export * from './event-stream';
export * from './http-client';
export * from './request-id';
export * from './turn-handle';
