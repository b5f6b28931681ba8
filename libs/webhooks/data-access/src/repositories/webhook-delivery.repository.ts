import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DeliveryStatus } from '../entities';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface DeliveryState {
  taskId: string;
  accountId: string;
  url: string;
  status: DeliveryStatus;
  /** Attempts made so far (the highest attempt number recorded). */
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
  deliveredAt: Date | null;
}

export interface AttemptRecord {
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

export interface DeliveryWithAttempts extends DeliveryState {
  attemptLog: AttemptRecord[];
}

/**
 * What one attempt did to the delivery: `delivered` (2xx), `failed` (another
 * attempt follows) or `abandoned` (it was the last one).
 */
export type AttemptOutcome = 'delivered' | 'failed' | 'abandoned';

export interface RecordAttemptInput extends AttemptRecord {
  taskId: string;
  accountId: string;
  outcome: AttemptOutcome;
}

interface DeliveryRow {
  task_id: string;
  account_id: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
}

interface AttemptRow {
  attempt: number;
  started_at: Date;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

const DELIVERY_COLUMNS = `task_id, account_id, url, status, attempts, created_at, updated_at, delivered_at`;

function stateFromRow(row: DeliveryRow): DeliveryState {
  return {
    taskId: row.task_id,
    accountId: row.account_id,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deliveredAt: row.delivered_at,
  };
}

/**
 * Deliveries and their attempt log. Every read is scoped by account; every
 * status write is conditional (`status = 'pending'` and a higher attempt
 * number), so a re-run job can never move a delivery backwards or count an
 * attempt twice.
 */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Creates the delivery (pending) if it does not exist yet; returns its current state (one statement). */
  async openDelivery(
    input: { taskId: string; accountId: string; url: string },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<DeliveryState | undefined> {
    if (!UUID.test(input.taskId) || !UUID.test(input.accountId)) return undefined;
    const rows: DeliveryRow[] = await this.relaxed(manager, (m) =>
      m.query(
        `WITH created AS (
         INSERT INTO webhooks.deliveries (task_id, account_id, url) VALUES ($1, $2, $3)
         ON CONFLICT (task_id) DO NOTHING
         RETURNING ${DELIVERY_COLUMNS})
       SELECT * FROM created
       UNION ALL
       SELECT ${DELIVERY_COLUMNS} FROM webhooks.deliveries
        WHERE task_id = $1 AND account_id = $2 AND NOT EXISTS (SELECT 1 FROM created)`,
        [input.taskId, input.accountId, input.url],
      ),
    );
    return rows[0] ? stateFromRow(rows[0]) : undefined;
  }

  /** The delivery of one of the account's tasks, without its attempts. */
  async findAccountDelivery(
    accountId: string,
    taskId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<DeliveryState | undefined> {
    if (!UUID.test(taskId) || !UUID.test(accountId)) return undefined;
    const rows: DeliveryRow[] = await manager.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhooks.deliveries WHERE task_id = $1 AND account_id = $2`,
      [taskId, accountId],
    );
    return rows[0] ? stateFromRow(rows[0]) : undefined;
  }

  /** The delivery of one of the account's tasks with every attempt, oldest first. */
  async findOwnedDeliveryLog(
    accountId: string,
    taskId: string,
  ): Promise<DeliveryWithAttempts | undefined> {
    const delivery = await this.findAccountDelivery(accountId, taskId);
    if (!delivery) return undefined;
    const rows: AttemptRow[] = await this.dataSource.query(
      `SELECT attempt, started_at, duration_ms, status_code, error
         FROM webhooks.attempts WHERE task_id = $1 ORDER BY attempt`,
      [taskId],
    );
    return {
      ...delivery,
      attemptLog: rows.map((r) => ({
        attempt: r.attempt,
        startedAt: r.started_at,
        durationMs: r.duration_ms,
        statusCode: r.status_code,
        error: r.error,
      })),
    };
  }

  /**
   * Stores one attempt and moves the delivery in one statement. Returns
   * false (and changes nothing) when this attempt number was already recorded
   * or the delivery is no longer pending.
   */
  async recordAttempt(input: RecordAttemptInput): Promise<boolean> {
    // One statement: the attempt row exists exactly when the delivery moved.
    const rows: { recorded: number }[] = await this.relaxed(this.dataSource.manager, (m) =>
      m.query(
        `WITH moved AS (
         UPDATE webhooks.deliveries
            SET attempts = $3,
                status = $4,
                delivered_at = CASE WHEN $4 = 'delivered' THEN now() ELSE NULL END,
                updated_at = now()
          WHERE task_id = $1 AND account_id = $2 AND status = 'pending' AND attempts < $3
          RETURNING task_id),
       recorded AS (
         INSERT INTO webhooks.attempts (task_id, attempt, started_at, duration_ms, status_code, error)
         SELECT task_id, $3, $5, $6, $7, $8 FROM moved
         RETURNING 1)
       SELECT count(*)::int AS recorded FROM recorded`,
        [
          input.taskId,
          input.accountId,
          input.attempt,
          input.outcome === 'failed' ? 'pending' : input.outcome,
          input.startedAt,
          Math.max(0, Math.round(input.durationMs)),
          input.statusCode,
          input.error,
        ],
      ),
    );
    return rows[0]?.recorded === 1;
  }

  /**
   * Runs a delivery-log write without waiting for its WAL flush
   * (`synchronous_commit = off`, docs/decisions/0040): a burst of deliveries
   * is not serialised behind fsyncs. A PostgreSQL crash may lose the last
   * fraction of a second of log rows, never leave them inconsistent; the
   * worst outcome is one more (duplicate) attempt, which receivers tolerate.
   * Inside a caller's transaction the caller's durability applies.
   */
  private async relaxed<T>(
    manager: EntityManager,
    run: (m: EntityManager) => Promise<T>,
  ): Promise<T> {
    if (manager.queryRunner?.isTransactionActive) return run(manager);
    return this.dataSource.transaction(async (m) => {
      await m.query(`SET LOCAL synchronous_commit TO OFF`);
      return run(m);
    });
  }
}
