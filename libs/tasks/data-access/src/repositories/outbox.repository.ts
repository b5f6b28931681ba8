import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { runStatement, statementsOf } from '@genhub/database';
import type { DB as TasksTables } from '../generated/schema.types';

const tasks = statementsOf<TasksTables>();

export interface OutboxItem {
  jobName: string;
  jobId: string;
  payload: unknown;
}

export interface OutboxRow extends OutboxItem {
  id: number;
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
    const rows = await runStatement(
      manager,
      tasks
        .insertInto('tasks.outbox')
        .values(
          items.map((i) => ({
            job_name: i.jobName,
            job_id: i.jobId,
            payload: JSON.stringify(i.payload),
          })),
        )
        .returning('id'),
    );
    return rows.map((row, n) => ({ ...items[n], id: row.id }));
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

  /**
   * Vacuums the outbox (outside any transaction). SKIP_LOCKED: while another
   * process vacuums it, this one does nothing instead of waiting its turn.
   */
  async vacuum(manager: EntityManager): Promise<void> {
    await manager.query(`VACUUM (SKIP_LOCKED) tasks.outbox`);
  }
}
