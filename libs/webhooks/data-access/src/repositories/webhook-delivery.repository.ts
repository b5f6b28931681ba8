import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isUUID } from 'class-validator';
import { inIndexWalk, type LocalSettings, preparedQuery } from '@genhub/database';
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
  /**
   * A failed attempt of a delivery the dispatcher claims from the table: its
   * next attempt is due this long after the record (decision 0141). Unset: the
   * delivery has nothing left to claim (a queue job makes the next attempt).
   */
  nextDueInMs?: number;
}

/** A delivery claimed for its next attempt (`claimDue`), with what that attempt sends. */
export interface DueDelivery {
  taskId: string;
  event: DeliveryEvent;
  accountId: string;
  url: string;
  body: string;
  /** Attempts made so far: this one is `attempts + 1`. */
  attempts: number;
  createdAt: Date;
  /** The request that created the task (for log lines), when known. */
  requestId: string | null;
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
 * Records attempts (each as if alone) and claims due deliveries, never one it
 * records, in one statement (`recordAndClaim`, decision 0141).
 */
const RECORD_AND_CLAIM = `WITH input AS (
       SELECT * FROM unnest($1::int[], $2::uuid[], $3::text[], $4::uuid[], $5::int[],
                            $6::text[], $7::timestamptz[], $8::int[], $9::int[], $10::text[],
                            $11::int[])
         AS i(i, task_id, event, account_id, attempt, status, started_at, duration_ms,
              status_code, error, next_due_ms)),
     moved AS (
       UPDATE webhooks.deliveries d
          SET attempts = i.attempt,
              status = i.status,
              delivered_at = CASE WHEN i.status = 'delivered' THEN now() ELSE NULL END,
              updated_at = now(),
              due_at = now() + i.next_due_ms * interval '1 millisecond',
              claimed_until = NULL
         FROM input i
        WHERE d.task_id = i.task_id AND d.event = i.event AND d.account_id = i.account_id
          AND d.status = 'pending' AND d.attempts < i.attempt
        RETURNING i.i, d.task_id, d.event, i.attempt, i.started_at, i.duration_ms,
                  i.status_code, i.error),
     recorded AS (
       INSERT INTO webhooks.attempts
         (task_id, event, attempt, started_at, duration_ms, status_code, error)
       SELECT task_id, event, attempt, started_at, duration_ms, status_code, error FROM moved),
     due AS (
       SELECT task_id, event FROM webhooks.deliveries d
        WHERE due_at <= now() AND status = 'pending'
          AND (claimed_until IS NULL OR claimed_until <= now())
          AND NOT EXISTS (SELECT 1 FROM input i WHERE i.task_id = d.task_id AND i.event = d.event)
        ORDER BY due_at LIMIT $12
        FOR UPDATE SKIP LOCKED),
     claimed AS (
       UPDATE webhooks.deliveries d
          SET claimed_until = now() + $13::integer * interval '1 millisecond'
         FROM due
        WHERE d.task_id = due.task_id AND d.event = due.event
       RETURNING d.task_id, d.event, d.account_id, d.url, d.body, d.attempts, d.created_at,
                 d.request_id)
     SELECT moved.i, NULL::uuid AS task_id, NULL::text AS event, NULL::uuid AS account_id,
            NULL::text AS url, NULL::text AS body, NULL::int AS attempts,
            NULL::timestamptz AS created_at, NULL::text AS request_id
       FROM moved
     UNION ALL
     SELECT NULL, task_id, event, account_id, url, body, attempts, created_at, request_id
       FROM claimed`;

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
    const [recorded] = await this.recordAttempts([input]);
    return recorded === true;
  }

  /**
   * `recordAttempt` for several attempts in ONE statement (each as if alone):
   * per input, whether it was recorded. Every recorded delivery's `due_at`
   * becomes its next attempt's (a failed one with `nextDueInMs`) or NULL.
   */
  async recordAttempts(inputs: readonly RecordAttemptInput[]): Promise<boolean[]> {
    if (!inputs.length) return [];
    return (await this.recordAndClaim(inputs, 0, 0)).recorded;
  }

  /**
   * Claims up to `limit` deliveries whose next attempt is due, oldest first,
   * for `leaseMs` (decision 0141): another dispatcher (or this one after a
   * crash) takes them up only once the claim has lapsed. Rows another
   * dispatcher is claiming are skipped, not waited for.
   */
  async claimDue(limit: number, leaseMs: number): Promise<DueDelivery[]> {
    return (await this.recordAndClaim([], limit, leaseMs)).claimed;
  }

  /**
   * `recordAttempts` and `claimDue` in ONE statement and one commit: a busy
   * dispatcher's finished attempts ride with its next claim (decision 0141).
   * A delivery being recorded is never claimed by the same statement. Planned
   * as an index walk (decision 0144), as are the other reads of the due
   * deliveries below: a claim walks `deliveries_due` from its oldest entry
   * and joins the rest on the primary key, whatever the table held when the
   * connection planned it.
   */
  async recordAndClaim(
    records: readonly RecordAttemptInput[],
    limit: number,
    leaseMs: number,
  ): Promise<{ recorded: boolean[]; claimed: DueDelivery[] }> {
    type Row = { i: number | null } & Pick<
      DeliveryRow,
      'task_id' | 'account_id' | 'url' | 'body' | 'attempts' | 'created_at'
    > & { event: DeliveryEvent; request_id: string | null };
    const rows = await inIndexWalk<Row>(
      this.dataSource,
      RECORD_AND_CLAIM,
      [
        records.map((_, i) => i),
        records.map((a) => a.taskId),
        records.map((a) => a.event ?? 'completed'),
        records.map((a) => a.accountId),
        records.map((a) => a.attempt),
        records.map((a) => (a.outcome === 'failed' ? 'pending' : a.outcome)),
        records.map((a) => a.startedAt),
        records.map((a) => Math.max(0, Math.round(a.durationMs))),
        records.map((a) => a.statusCode),
        records.map((a) => a.error),
        records.map((a) => (a.outcome === 'failed' ? (a.nextDueInMs ?? null) : null)),
        limit,
        leaseMs,
      ],
      RELAXED_COMMIT,
    );
    const recorded = new Set<number>();
    const claimed: DueDelivery[] = [];
    for (const r of rows) {
      if (r.i !== null) recorded.add(r.i);
      else
        claimed.push({
          taskId: r.task_id,
          event: r.event,
          accountId: r.account_id,
          url: r.url,
          // Deliveries opened by the terminal statement always carry their body.
          body: r.body ?? '',
          attempts: r.attempts,
          createdAt: r.created_at,
          requestId: r.request_id,
        });
    }
    return { recorded: records.map((_, i) => recorded.has(i)), claimed };
  }

  /** When the earliest claimable delivery falls due (or its claim lapses); undefined: none waits. */
  async nextDue(): Promise<Date | undefined> {
    const rows = await inIndexWalk<{ at: Date }>(
      this.dataSource,
      `SELECT min(greatest(due_at, claimed_until)) AS at FROM (
         SELECT due_at, claimed_until FROM webhooks.deliveries
          WHERE due_at IS NOT NULL AND status = 'pending' ORDER BY due_at LIMIT 1000) next`,
      [],
    );
    return rows[0]?.at ?? undefined;
  }

  /**
   * Deliveries due now: `waiting` for a claim, or `claimed` and under way;
   * at most `cap` counted (a gauge for scaling, not an inventory).
   */
  async dueCounts(cap: number): Promise<{ waiting: number; claimed: number }> {
    const [row] = await inIndexWalk<{ waiting: number; claimed: number }>(
      this.dataSource,
      `SELECT count(*) FILTER (WHERE claimed_until IS NULL OR claimed_until <= now())::int AS waiting,
              count(*) FILTER (WHERE claimed_until > now())::int AS claimed
         FROM (SELECT claimed_until FROM webhooks.deliveries
                WHERE due_at <= now() AND status = 'pending' LIMIT $1) due`,
      [cap],
    );
    return row ?? { waiting: 0, claimed: 0 };
  }

  /** Gives claimed deliveries back, due again in `inMs` (a saturated host: not now). */
  async releaseDue(
    deliveries: readonly Pick<DueDelivery, 'taskId' | 'event'>[],
    inMs: number,
  ): Promise<void> {
    if (!deliveries.length) return;
    await inIndexWalk(
      this.dataSource,
      `UPDATE webhooks.deliveries d
          SET due_at = now() + $3::integer * interval '1 millisecond', claimed_until = NULL
         FROM unnest($1::uuid[], $2::text[]) AS i(task_id, event)
        WHERE d.task_id = i.task_id AND d.event = i.event AND d.status = 'pending'
          AND d.due_at IS NOT NULL`,
      [deliveries.map((d) => d.taskId), deliveries.map((d) => d.event), inMs],
      RELAXED_COMMIT,
    );
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
                SET status = 'pending', delivered_at = NULL, updated_at = now(), due_at = NULL,
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
 * `synchronous_commit = off` for a dispatcher's own transaction (an index
 * walk's, `inIndexWalk`): the delivery log's writes, as `relaxedCommit` below.
 */
const RELAXED_COMMIT: LocalSettings = { synchronous_commit: 'off' };

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
