import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

export interface OutboxItem {
  jobName: string;
  jobId: string;
  payload: unknown;
}

export interface OutboxRow extends OutboxItem {
  id: number;
}

/**
 * A data-modifying CTE named `name` that writes `items` (given as ONE jsonb
 * parameter, see outboxParam) once per row of `source`: the outbox rows of a
 * state change written by the statement that makes the change. `payload`
 * may rewrite each item's payload (`j.payload`) from the source row.
 */
export function outboxInsertCte(
  name: string,
  source: string,
  param: number,
  payload = 'j.payload',
): string {
  return `${name} AS (
    INSERT INTO tasks.outbox (job_name, job_id, payload)
    SELECT j.job_name, j.job_id, ${payload}
      FROM ${source}, jsonb_to_recordset($${param}::jsonb) AS j(job_name text, job_id text, payload jsonb)
    RETURNING id, job_name AS "jobName", job_id AS "jobId", payload)`;
}

/** The parameter for outboxInsertCte. */
export function outboxParam(items: OutboxItem[]): string {
  return JSON.stringify(
    items.map((i) => ({ job_name: i.jobName, job_id: i.jobId, payload: i.payload })),
  );
}

/**
 * The transactional outbox: rows are written in the transaction of the state
 * change they announce and moved to BullMQ by the relay.
 */
@Injectable()
export class OutboxRepository {
  /** Writes `items` in the caller's transaction; returns the rows for OutboxRelay.handOver. */
  async add(manager: EntityManager, items: OutboxItem[]): Promise<OutboxRow[]> {
    if (!items.length) return [];
    return manager.query(`WITH ${outboxInsertCte('o', '(SELECT 1) AS one', 1)} SELECT * FROM o`, [
      outboxParam(items),
    ]);
  }

  /**
   * Locks the oldest rows no other relay holds (call inside a transaction);
   * with `olderThanMs`, only rows at least that old (younger ones are still
   * being handed over by the process that wrote them).
   */
  async claim(manager: EntityManager, limit: number, olderThanMs = 0): Promise<OutboxRow[]> {
    const rows: { id: number; job_name: string; job_id: string; payload: unknown }[] =
      await manager.query(
        `SELECT id, job_name, job_id, payload FROM tasks.outbox
          WHERE created_at <= now() - make_interval(secs => $2::float8 / 1000)
          ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [limit, olderThanMs],
      );
    return rows.map((r) => ({
      id: r.id,
      jobName: r.job_name,
      jobId: r.job_id,
      payload: r.payload,
    }));
  }

  /**
   * Whether any row is at least `olderThanMs` old: one plain statement, so
   * that a poll finding nothing (nearly every poll) costs no transaction.
   */
  async hasDue(manager: EntityManager, olderThanMs: number): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM tasks.outbox
        WHERE created_at <= now() - make_interval(secs => $1::float8 / 1000) LIMIT 1`,
      [olderThanMs],
    );
    return rows.length > 0;
  }

  async remove(manager: EntityManager, ids: number[]): Promise<void> {
    if (ids.length) await manager.query(`DELETE FROM tasks.outbox WHERE id = ANY($1)`, [ids]);
  }
}
