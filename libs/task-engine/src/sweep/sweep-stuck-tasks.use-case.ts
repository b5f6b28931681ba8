import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TaskCode, taskErrorMessage } from '@genhub/errors';
import { METRICS, MetricsService } from '@genhub/observability';
import { TaskRepository } from '@genhub/tasks-data-access';
import { TaskFinisher } from '../finish/task-finisher.service';
import { OPEN_STATUSES } from '../rules/task-lifecycle.rules';

export interface SweepStuckTasksInput {
  /** Allowance on top of each task's own time limit (STUCK_TASK_GRACE_MS). */
  graceMs: number;
}

/** The PostgreSQL advisory lock that makes one sweeper act at a time ("stuck" in hex, spelled out). */
export const STUCK_TASK_SWEEP_LOCK = 0x5354_5543_4b;
const BATCH = 100;
/** Bounds one sweep; what is left waits for the next tick. */
const MAX_BATCHES = 10;

/**
 * Fails tasks stuck beyond their time limit plus a grace (TaskRepository.findStuck)
 * with 5004, through TaskFinisher — the same one statement as a run: the
 * conditional terminal update, the release of the reservation and the
 * webhook delivery, due for the dispatchers — so the webhook fires and the reservation is
 * released exactly once, whoever races it.
 * Only the holder of a transaction-scoped advisory lock sweeps; the others
 * skip (answer undefined). Needs only PostgreSQL: it works while Redis is down.
 */
@Injectable()
export class SweepStuckTasksUseCase {
  private readonly logger = new Logger(SweepStuckTasksUseCase.name);
  private readonly swept;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tasks: TaskRepository,
    private readonly finisher: TaskFinisher,
    metrics: MetricsService,
  ) {
    this.swept = metrics.counter(METRICS.tasksSwept);
    // Both series exist from the start (0), so rates and alerts see them before the first sweep.
    for (const from of ['created', 'processing']) this.swept.inc({ from }, 0);
  }

  /** How many tasks this sweep failed; undefined when another sweeper holds the lock. */
  async execute(input: SweepStuckTasksInput): Promise<number | undefined> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      // The lock lives as long as this transaction: a crashed sweeper cannot leave it held.
      await runner.startTransaction();
      const [{ won }]: { won: boolean }[] = await runner.query(
        `SELECT pg_try_advisory_xact_lock($1) AS won`,
        [STUCK_TASK_SWEEP_LOCK],
      );
      const failed = won ? await this.sweep(input.graceMs) : undefined;
      await runner.commitTransaction();
      return failed;
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      await runner.release();
    }
  }

  private async sweep(graceMs: number): Promise<number> {
    let failed = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const stuck = await this.tasks.findStuck(OPEN_STATUSES, graceMs, BATCH);
      for (const task of stuck) {
        const row = await this.finisher.finish(task, {
          failed: {
            code: TaskCode.Timeout,
            error: taskErrorMessage(TaskCode.Timeout),
            timings: null,
          },
        });
        if (!row) continue; // finished, deleted or claimed again meanwhile
        failed++;
        this.swept.inc({ from: task.status });
        this.logger.warn(
          { taskId: task.id, from: task.status, attempt: task.attempt },
          'stuck task failed with a timeout',
        );
      }
      if (stuck.length < BATCH) break;
    }
    return failed;
  }
}
