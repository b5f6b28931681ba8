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
 * The transactional outbox: rows are written in the transaction of the state
 * change they announce and moved to BullMQ by the relay.
 */
@Injectable()
export class OutboxRepository {
  async add(manager: EntityManager, items: OutboxItem[]): Promise<void> {
    if (!items.length) return;
    const values: unknown[] = [];
    const tuples = items.map((item, i) => {
      values.push(item.jobName, item.jobId, JSON.stringify(item.payload));
      return `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`;
    });
    await manager.query(
      `INSERT INTO tasks.outbox (job_name, job_id, payload) VALUES ${tuples.join(', ')}`,
      values,
    );
  }

  /** Locks the oldest rows no other relay holds (call inside a transaction). */
  async claim(manager: EntityManager, limit: number): Promise<OutboxRow[]> {
    const rows: { id: number; job_name: string; job_id: string; payload: unknown }[] =
      await manager.query(
        `SELECT id, job_name, job_id, payload FROM tasks.outbox
          ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [limit],
      );
    return rows.map((r) => ({
      id: r.id,
      jobName: r.job_name,
      jobId: r.job_id,
      payload: r.payload,
    }));
  }

  async remove(manager: EntityManager, ids: number[]): Promise<void> {
    if (ids.length) await manager.query(`DELETE FROM tasks.outbox WHERE id = ANY($1)`, [ids]);
  }
}
