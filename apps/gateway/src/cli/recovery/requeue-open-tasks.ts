import type { DataSource } from 'typeorm';
import { JobName, jobIdFor } from '@genhub/queue';
import { settlementFor } from '@genhub/task-flow';
import { RecoveryQueues } from './recovery-queues';

export interface RequeueReport {
  dry_run: boolean;
  /** Outbox rows handed to BullMQ (a relay does this too, on start and every 200 ms). */
  outbox_rows: number;
  /** created/processing tasks: their run-task job was live, or was added again. */
  open_tasks: { found: number; live: number; requeued: number };
  /** completed/failed/deleted tasks whose reservation is still open: their settle-task job. */
  unsettled_tasks: { found: number; live: number; requeued: number };
}

interface OpenTaskRow {
  id: string;
}
interface UnsettledRow {
  id: string;
  account_id: string;
  status: 'completed' | 'failed' | 'deleted';
  attempt: number;
  code: number | null;
}

const BATCH = 500;

/**
 * `tasks:requeue`: rebuilds the queues from PostgreSQL after Redis lost them
 * (docs/decisions/0066). The outbox covers what was not yet handed over; what
 * was handed over and then lost is re-derived from the rows: every open task
 * gets its run-task job, every finished (completed, failed or deleted) task
 * with an open reservation its settle-task job (`settlementFor`, path `recovered`). Ids
 * are deterministic and each run and settle is conditional, so running it
 * twice (or while the apps run) changes nothing more.
 */
export async function requeueOpenTasks(
  dataSource: DataSource,
  queues: RecoveryQueues,
  dryRun: boolean,
): Promise<RequeueReport> {
  const outbox = dryRun
    ? Number((await dataSource.query(`SELECT count(*)::int AS n FROM tasks.outbox`))[0].n)
    : await queues.drainOutbox(dataSource);
  const report: RequeueReport = {
    dry_run: dryRun,
    outbox_rows: outbox,
    open_tasks: { found: 0, live: 0, requeued: 0 },
    unsettled_tasks: { found: 0, live: 0, requeued: 0 },
  };

  for await (const rows of batches<OpenTaskRow>(
    dataSource,
    `SELECT id FROM tasks.tasks WHERE status IN ('created', 'processing') AND id > $1
      ORDER BY id LIMIT ${BATCH}`,
  )) {
    for (const row of rows) {
      const jobId = jobIdFor(JobName.RunTask, row.id);
      report.open_tasks.found++;
      const outcome = dryRun
        ? (await queues.isLive('tasks', jobId))
          ? 'live'
          : 'added'
        : await queues.ensure(JobName.RunTask, { v: 1, taskId: row.id }, jobId);
      report.open_tasks[outcome === 'live' ? 'live' : 'requeued']++;
    }
  }

  for await (const rows of batches<UnsettledRow>(
    dataSource,
    `SELECT t.id, t.account_id, t.status, t.attempt, t.code FROM tasks.tasks t
       JOIN billing.reservations r ON r.task_id = t.id AND r.state = 'open'
      WHERE t.status IN ('completed', 'failed', 'deleted') AND t.id > $1
      ORDER BY t.id LIMIT ${BATCH}`,
  )) {
    for (const row of rows) {
      const jobId = jobIdFor(JobName.SettleTask, row.id);
      report.unsettled_tasks.found++;
      // The settlement the lost job carried (never `none` for a recovered row).
      const outcome = settlementFor({ path: 'recovered', ...row });
      if (outcome === 'none') continue;
      const data = { v: 1, taskId: row.id, accountId: row.account_id, outcome };
      const queued = dryRun
        ? (await queues.isLive('billing', jobId))
          ? 'live'
          : 'added'
        : await queues.ensure(JobName.SettleTask, data, jobId);
      report.unsettled_tasks[queued === 'live' ? 'live' : 'requeued']++;
    }
  }
  return report;
}

/** Keyset batches by id (the query takes the last id seen as $1). */
export async function* batches<T extends { id: string }>(
  dataSource: DataSource,
  sql: string,
  params: unknown[] = [],
): AsyncGenerator<T[]> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows: T[] = await dataSource.query(sql, [after, ...params]);
    if (!rows.length) return;
    yield rows;
    after = rows[rows.length - 1].id;
  }
}
