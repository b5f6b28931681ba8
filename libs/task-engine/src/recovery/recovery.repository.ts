import type { DataSource } from 'typeorm';
import { JobName } from '@genhub/queue';
import { TERMINAL_STATUSES, taskFromRow } from '@genhub/tasks-data-access';
import { OPEN_STATUSES } from '../rules/task-lifecycle.rules';
import type { DeliveryStatus } from '@genhub/webhooks-data-access';

/** A finished task whose reservation is still open (its settle job was lost). */
export interface UnsettledTaskRow {
  id: string;
  account_id: string;
  status: 'completed' | 'failed' | 'deleted';
  attempt: number;
  code: number | null;
}

/** A terminal task with a webhook, and its delivery as far as it got. */
export type ReplayCandidateRow = Parameters<typeof taskFromRow>[0] & {
  delivery_status: DeliveryStatus | null;
  delivery_attempts: number | null;
};

export interface ReplayCandidateFilter {
  /** Missing or pending deliveries count as lost only when older than this. */
  staleBefore: Date;
  since?: Date;
  accountId?: string;
  taskId?: string;
}

const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/**
 * The reads recovery needs across the tasks, billing and webhooks schemas —
 * the flow's own SQL, in keyset batches by task id so a table of any size is
 * walked in bounded memory.
 */
export class RecoveryRepository {
  constructor(private readonly dataSource: DataSource) {}

  async outboxSize(): Promise<number> {
    const rows: { n: number }[] = await this.dataSource.query(
      `SELECT count(*)::int AS n FROM tasks.outbox`,
    );
    return rows[0].n;
  }

  /** Open tasks (the lifecycle's open set): each needs its run-task job. */
  openTasks(): AsyncGenerator<{ id: string }[]> {
    return this.batches(
      `SELECT id FROM tasks.tasks WHERE status = ANY($2) AND id > $1
        ORDER BY id LIMIT 500`,
      [OPEN_STATUSES],
    );
  }

  /** Finished tasks whose reservation is still open. */
  unsettledTasks(): AsyncGenerator<UnsettledTaskRow[]> {
    return this.batches(
      `SELECT t.id, t.account_id, t.status, t.attempt, t.code FROM tasks.tasks t
         JOIN billing.reservations r ON r.task_id = t.id AND r.state = 'open'
        WHERE t.status IN ('completed', 'failed', 'deleted') AND t.id > $1
        ORDER BY t.id LIMIT 500`,
    );
  }

  /**
   * Terminal tasks with a webhook whose delivery was abandoned, is pending
   * with no progress since `staleBefore`, or never started — and that have no
   * delivery job waiting in the outbox. Their end's delivery: a `start` event's
   * is not replayed (decision 0137).
   */
  replayCandidates(filter: ReplayCandidateFilter): AsyncGenerator<ReplayCandidateRow[]> {
    return this.batches(
      `SELECT t.*, d.status AS delivery_status, d.attempts AS delivery_attempts
         FROM tasks.tasks t
         LEFT JOIN webhooks.deliveries d ON d.task_id = t.id AND d.event = 'completed'
        WHERE t.status = ANY($6) AND t.webhook_url IS NOT NULL AND t.id > $1
          AND (d.status = 'abandoned'
               OR (d.status = 'pending' AND d.updated_at < $2)
               OR (d.task_id IS NULL AND t.finished_at < $2))
          AND ($3::timestamptz IS NULL OR t.finished_at >= $3)
          AND ($4::text IS NULL OR t.account_id::text = $4)
          AND ($5::text IS NULL OR t.id::text = $5)
          AND NOT EXISTS (SELECT 1 FROM tasks.outbox o
                           WHERE o.job_name = '${JobName.DeliverWebhook}' AND o.payload->>'taskId' = t.id::text
                             AND o.payload->>'event' IS NULL)
        ORDER BY t.id LIMIT 200`,
      [
        filter.staleBefore,
        filter.since ?? null,
        filter.accountId ?? null,
        filter.taskId ?? null,
        TERMINAL_STATUSES,
      ],
    );
  }

  /** Keyset batches by id (the query takes the last id seen as $1). */
  private async *batches<T extends { id: string }>(
    sql: string,
    params: unknown[] = [],
  ): AsyncGenerator<T[]> {
    let after = FIRST_ID;
    for (;;) {
      const rows: T[] = await this.dataSource.query(sql, [after, ...params]);
      if (!rows.length) return;
      yield rows;
      after = rows[rows.length - 1].id;
    }
  }
}
