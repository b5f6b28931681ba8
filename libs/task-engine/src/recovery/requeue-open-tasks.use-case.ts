import type { DataSource } from 'typeorm';
import { JobName, jobIdFor, QueueName } from '@genhub/queue';
import { settlementFor } from '../rules/settlement.rules';
import { RecoveryQueues } from './recovery-queues.service';
import { RecoveryRepository } from './recovery.repository';

export interface RequeueReport {
  dry_run: boolean;
  /** Outbox rows handed to BullMQ (a relay does this too, on start and every 200 ms). */
  outbox_rows: number;
  /** created/processing tasks: their run-task job was live, or was added again. */
  open_tasks: { found: number; live: number; requeued: number };
  /** completed/failed/deleted tasks whose reservation is still open: their settle-task job. */
  unsettled_tasks: { found: number; live: number; requeued: number };
}

/**
 * `tasks:requeue`: rebuilds the queues from PostgreSQL after Redis lost them
 * (docs/decisions/0066). The outbox covers what was not yet handed over; what
 * was handed over and then lost is re-derived from the rows: every open task
 * gets its run-task job, every finished (completed, failed or deleted) task
 * with an open reservation its settle-task job (`settlementFor`, path
 * `recovered`). Ids are deterministic and each run and settle is
 * conditional, so running it twice (or while the apps run) changes nothing more.
 */
export class RequeueOpenTasksUseCase {
  private readonly rows: RecoveryRepository;

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: RecoveryQueues,
  ) {
    this.rows = new RecoveryRepository(dataSource);
  }

  async execute(input: { dryRun: boolean }): Promise<RequeueReport> {
    const { dryRun } = input;
    const report: RequeueReport = {
      dry_run: dryRun,
      outbox_rows: dryRun
        ? await this.rows.outboxSize()
        : await this.queues.drainOutbox(this.dataSource),
      open_tasks: { found: 0, live: 0, requeued: 0 },
      unsettled_tasks: { found: 0, live: 0, requeued: 0 },
    };

    for await (const rows of this.rows.openTasks())
      for (const row of rows) {
        report.open_tasks.found++;
        const queued = await this.ensure(dryRun, JobName.RunTask, { v: 1, taskId: row.id }, row.id);
        report.open_tasks[queued === 'live' ? 'live' : 'requeued']++;
      }

    for await (const rows of this.rows.unsettledTasks())
      for (const row of rows) {
        report.unsettled_tasks.found++;
        // The settlement the lost job carried (never `none` for a recovered row).
        const outcome = settlementFor({ path: 'recovered', ...row });
        if (outcome === 'none') continue;
        const data = { v: 1 as const, taskId: row.id, accountId: row.account_id, outcome };
        const queued = await this.ensure(dryRun, JobName.SettleTask, data, row.id);
        report.unsettled_tasks[queued === 'live' ? 'live' : 'requeued']++;
      }
    return report;
  }

  /** The job runs (or, in a dry run, would be added): 'live' when it already will. */
  private async ensure(
    dryRun: boolean,
    name: typeof JobName.RunTask | typeof JobName.SettleTask,
    data: unknown,
    taskId: string,
  ): Promise<'live' | 'added'> {
    const jobId = jobIdFor(name, taskId);
    if (!dryRun) return this.queues.ensure(name, data, jobId, taskId);
    const queue = name === JobName.RunTask ? QueueName.Tasks : QueueName.Billing;
    return (await this.queues.isLive(queue, jobId, taskId)) ? 'live' : 'added';
  }
}
