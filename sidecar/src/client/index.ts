/** Cairn's public client: the typed HTTP API and the event stream, for the renderer, the CLI and scripts. */
export * from './event-stream';
export * from './http-client';
