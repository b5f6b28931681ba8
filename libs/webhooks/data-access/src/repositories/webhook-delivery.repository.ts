import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isUUID } from 'class-validator';
import { preparedQuery } from '@genhub/database';
import { DeliveryEvent, DeliveryStatus } from '../rows';

export interface DeliveryState {
  taskId: string;
  accountId: string;
  url: string;
  /** The JSON body every attempt sends; null for deliveries opened by a job that carries it. */
  body: string | null;
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
  /** The delivery's event; default `completed`. */
  event?: DeliveryEvent;
  accountId: string;
  outcome: AttemptOutcome;
}

interface DeliveryRow {
  task_id: string;
  account_id: string;
  url: string;
  body: string | null;
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

const DELIVERY_COLUMNS = `task_id, account_id, url, body, status, attempts, created_at, updated_at, delivered_at`;

function stateFromRow(row: DeliveryRow): DeliveryState {
  return {
    taskId: row.task_id,
    accountId: row.account_id,
    url: row.url,
    body: row.body,
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
 * attempt twice. A delivery is a task's and an event's: what is keyed by task
 * alone (listings, replay) is the task's end, `completed`; only the
 * dispatcher names another event (`start`).
 */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The delivery's current state, as the statement that opened it (or a replay) left it. */
  async findDelivery(
    taskId: string,
    accountId: string,
    event: DeliveryEvent = 'completed',
  ): Promise<DeliveryState | undefined> {
    if (!isUUID(taskId) || !isUUID(accountId)) return undefined;
    const rows = await preparedQuery<DeliveryRow[]>(
      this.dataSource.manager,
      `SELECT ${DELIVERY_COLUMNS} FROM webhooks.deliveries
        WHERE task_id = $1 AND account_id = $2 AND event = $3`,
      [taskId, accountId, event],
    );
    return rows[0] ? stateFromRow(rows[0]) : undefined;
  }

  /**
   * Creates the delivery (pending) if it does not exist yet; returns its
   * current state (one statement), without a body: a replay gives it one
   * (the task's terminal statement opens deliveries with theirs).
   */
  async openDelivery(
    input: { taskId: string; accountId: string; url: string },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<DeliveryState | undefined> {
    if (!isUUID(input.taskId) || !isUUID(input.accountId)) return undefined;
    const rows = await preparedQuery<DeliveryRow[]>(
      manager,
      `WITH ${relaxedCommit(manager)},
       created AS (
         INSERT INTO webhooks.deliveries (task_id, account_id, url) VALUES ($1, $2, $3)
         ON CONFLICT (task_id, event) DO NOTHING
         RETURNING ${DELIVERY_COLUMNS})
       SELECT created.* FROM created, relaxed_commit
       UNION ALL
       SELECT ${DELIVERY_COLUMNS} FROM webhooks.deliveries
        WHERE task_id = $1 AND account_id = $2 AND event = 'completed'
          AND NOT EXISTS (SELECT 1 FROM created)`,
      [input.taskId, input.accountId, input.url],
    );
    return rows[0] ? stateFromRow(rows[0]) : undefined;
  }

  /** The delivery of one of the account's tasks (its end's), without its attempts. */
  async findAccountDelivery(
    accountId: string,
    taskId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<DeliveryState | undefined> {
    if (!isUUID(taskId) || !isUUID(accountId)) return undefined;
    const rows: DeliveryRow[] = await manager.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhooks.deliveries
        WHERE task_id = $1 AND account_id = $2 AND event = 'completed'`,
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
         FROM webhooks.attempts WHERE task_id = $1 AND event = 'completed' ORDER BY attempt`,
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
    const manager = this.dataSource.manager;
    const rows = await preparedQuery<{ recorded: number }[]>(
      manager,
      `WITH ${relaxedCommit(manager)},
       moved AS (
         UPDATE webhooks.deliveries
            SET attempts = $3,
                status = $4,
                delivered_at = CASE WHEN $4 = 'delivered' THEN now() ELSE NULL END,
                updated_at = now()
          WHERE task_id = $1 AND event = $9 AND account_id = $2 AND status = 'pending'
            AND attempts < $3
          RETURNING task_id, event),
       recorded AS (
         INSERT INTO webhooks.attempts
           (task_id, event, attempt, started_at, duration_ms, status_code, error)
         SELECT task_id, event, $3, $5, $6, $7, $8 FROM moved
         RETURNING 1)
       SELECT count(*)::int AS recorded FROM recorded, relaxed_commit`,
      [
        input.taskId,
        input.accountId,
        input.attempt,
        input.outcome === 'failed' ? 'pending' : input.outcome,
        input.startedAt,
        Math.max(0, Math.round(input.durationMs)),
        input.statusCode,
        input.error,
        input.event ?? 'completed',
      ],
    );
    return rows[0]?.recorded === 1;
  }

  /**
   * Claims a task's end delivery for a replay (`webhooks:replay`): creates it when it
   * does not exist (`seen` undefined), or moves it back to pending when it is
   * still exactly as the caller saw it (status and attempt count). Returns the
   * attempts made so far, or undefined when another replay or the dispatcher
   * got there first. Meant for the caller's transaction (with the outbox row).
   */
  async claimForReplay(
    manager: EntityManager,
    input: { taskId: string; accountId: string; url: string; body: string },
    seen: { status: DeliveryStatus; attempts: number } | undefined,
  ): Promise<number | undefined> {
    // A delivery keeps the body it had (its bytes never change); an older one gets it now.
    const rows: { attempts: number }[] = seen
      ? (
          await manager.query(
            `UPDATE webhooks.deliveries
                SET status = 'pending', delivered_at = NULL, updated_at = now(),
                    body = coalesce(body, $5)
              WHERE task_id = $1 AND account_id = $2 AND status = $3 AND attempts = $4
                AND status <> 'delivered' AND event = 'completed'
              RETURNING attempts`,
            [input.taskId, input.accountId, seen.status, seen.attempts, input.body],
          )
        )[0]
      : await manager.query(
          `INSERT INTO webhooks.deliveries (task_id, account_id, url, body) VALUES ($1, $2, $3, $4)
           ON CONFLICT (task_id, event) DO NOTHING RETURNING attempts`,
          [input.taskId, input.accountId, input.url, input.body],
        );
    return rows[0]?.attempts;
  }
}

/**
 * A CTE named `relaxed_commit` that makes a delivery-log write's own
 * single-statement transaction commit without waiting for its WAL flush
 * (`synchronous_commit = off` for that transaction only, docs/decisions/0040):
 * a burst of deliveries is not serialised behind fsyncs, and it costs no
 * BEGIN / SET LOCAL / COMMIT round trips. A PostgreSQL crash may lose the
 * last fraction of a second of log rows, never leave them inconsistent;
 * the worst outcome is one more (duplicate) attempt, which receivers
 * tolerate. Inside a caller's transaction the caller's durability applies.
 * The statement must read the CTE (set_config runs only when evaluated).
 */
function relaxedCommit(manager: EntityManager): string {
  return manager.queryRunner?.isTransactionActive
    ? `relaxed_commit AS (SELECT NULL AS setting)`
    : `relaxed_commit AS (SELECT set_config('synchronous_commit', 'off', true) AS setting)`;
}
