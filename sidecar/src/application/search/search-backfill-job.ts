import type { Logger } from '../../log/logger';
import type { BackfillProgress, SearchBackfill } from '../../store/search-backfill';

const TASK = 'Indexing sessions for search';

/**
 * Indexes the history stored before search existed, after start and in the background: one batch per turn
 * of the event loop, so requests are served meanwhile, and a stop (or a crash) resumes where it was. Says
 * how far it has come in the log at every tenth.
 */
export class SearchBackfillJob {
  private timer: NodeJS.Immediate | null = null;
  private stopped = false;
  private lastTenth = -1;
  private resolveDone: () => void = () => undefined;
  /** Settles when everything is indexed (never, if stopped first). */
  readonly done: Promise<void>;

  constructor(
    private readonly backfill: SearchBackfill,
    private readonly logger: Logger,
    private readonly batch = 500,
  ) {
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
  }

  start(): void {
    if (!this.backfill.pending()) {
      this.resolveDone();
      return;
    }
    this.logger.info(`${TASK}: started`);
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearImmediate(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    this.timer = setImmediate(() => this.run());
  }

  private run(): void {
    this.timer = null;
    if (this.stopped) return;
    let progress: BackfillProgress | null;
    try {
      progress = this.backfill.step(this.batch);
    } catch (error) {
      // Search then misses older sessions until the next start tries again; nothing else depends on it.
      this.logger.error(`${TASK} failed; it is tried again at the next start`, { error });
      return;
    }
    if (progress) this.report(progress);
    if (!progress || progress.finished) {
      this.resolveDone();
      return;
    }
    this.schedule();
  }

  private report({ done, total, finished }: BackfillProgress): void {
    const tenth = total > 0 ? Math.floor((done / total) * 10) : 10;
    if (!finished && tenth === this.lastTenth) return;
    this.lastTenth = tenth;
    this.logger.info(finished ? `${TASK}: done (${total} rows)` : `${TASK}: ${done}/${total} rows`);
  }
}
