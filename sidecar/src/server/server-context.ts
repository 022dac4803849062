import type { Services } from '../application/composition-root';
import type { Logger } from '../log/logger';

/** What route handlers reach: the application's services, and how this server was started. */
export interface ServerContext {
  services: Services;
  logger: Logger;
  dataDir: string;
  mode: 'local' | 'remote';
}
