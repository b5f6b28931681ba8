import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { StuckTaskSweepConfig } from '@genhub/config';
import { SweepStuckTasksUseCase } from '@genhub/task-engine';

/**
 * Ticks the stuck-task sweep every STUCK_TASK_SWEEP_INTERVAL_MS in each
 * task-worker; the use-case's advisory lock lets one replica act per tick.
 * The first tick waits a random part of an interval so replicas spread out.
 */
@Injectable()
export class StuckTaskSweepScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(StuckTaskSweepScheduler.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private stopped = false;

  constructor(
    private readonly sweep: SweepStuckTasksUseCase,
    private readonly config: StuckTaskSweepConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(Math.random() * this.config.STUCK_TASK_SWEEP_INTERVAL_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce().finally(() => {
        this.running = undefined;
        this.schedule(this.config.STUCK_TASK_SWEEP_INTERVAL_MS);
      });
    }, delay);
    this.timer.unref();
  }

  private async runOnce(): Promise<void> {
    try {
      const failed = await this.sweep.execute({ graceMs: this.config.STUCK_TASK_GRACE_MS });
      if (failed) this.logger.warn(`failed ${failed} stuck task(s) with a timeout`);
    } catch (error) {
      // PostgreSQL down: the next tick tries again.
      this.logger.warn(`stuck-task sweep failed: ${(error as Error).message}`);
    }
  }
}
