/**
 * Something a session holds while it lives (its kernels, its MCP connections): released when the session
 * is deleted, or its project is.
 */
export interface SessionResource {
  closeSession(sessionId: string): Promise<void>;
}
