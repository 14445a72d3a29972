import type { RunReport } from '../../core/report/run-report.js';
import { checkGates } from '../../core/lifecycle/gates.js';
import { readState, requireConfig } from './read-library.js';
import { runCurator } from './run-curator.js';

export interface CuratorRunnerOptions {
  repoDir: string;
  /** The host's clock; default the system clock. */
  now?: () => Date;
  /** How often the timer checks whether a run is due; default one hour. */
  checkEveryMs?: number;
  onRun?: (report: RunReport) => void;
  onError?: (error: unknown) => void;
}

/**
 * The curator embedded in an agent host: no daemon, just a timer that checks
 * every hour and runs only when enabled, not paused, the interval has passed
 * and the host has been idle for `min_idle_hours`. The very first run only
 * records its time.
 */
export class CuratorRunner {
  private lastActivity: number;
  private paused = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<RunReport | undefined> | undefined;
  private readonly now: () => Date;

  constructor(private readonly options: CuratorRunnerOptions) {
    this.now = options.now ?? (() => new Date());
    this.lastActivity = this.now().getTime();
  }

  /** Call on every user or agent action: the curator waits for the host to be idle. */
  recordActivity(): void {
    this.lastActivity = this.now().getTime();
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }

  idleHours(): number {
    return (this.now().getTime() - this.lastActivity) / 3_600_000;
  }

  /** Whether a scheduled run would proceed now, and if not, why. */
  shouldRunNow(): { run: boolean; reason: string } {
    if (this.paused) return { run: false, reason: 'paused by the host' };
    const config = requireConfig(this.options.repoDir);
    const gates = checkGates(config, readState(this.options.repoDir), this.now(), { scheduled: true, idleHours: this.idleHours() });
    return gates.blocked_by === null
      ? { run: true, reason: gates.first_run ? 'first run: records its time only' : 'due' }
      : { run: false, reason: gates.blocked_by };
  }

  /** Runs if due; never two runs at once. */
  async tick(): Promise<RunReport | undefined> {
    if (this.running) return this.running;
    if (!this.shouldRunNow().run) return undefined;
    this.running = runCurator({ repoDir: this.options.repoDir, now: this.now(), scheduled: true, idleHours: this.idleHours() })
      .then(({ report }) => {
        this.options.onRun?.(report);
        return report;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  start(): void {
    this.stop();
    this.timer = setInterval(() => {
      this.tick().catch((error: unknown) => this.options.onError?.(error));
    }, this.options.checkEveryMs ?? 3_600_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
