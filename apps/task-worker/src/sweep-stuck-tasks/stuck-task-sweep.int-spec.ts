import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import { Test, TestingModule } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { LedgerRepository } from '@genhub/billing-data-access';
import {
  ConfigModule,
  DatabaseConfig,
  LogConfig,
  ProvidersConfig,
  RedisConfig,
  SecurityConfig,
  StorageConfig,
  TaskConfig,
} from '@genhub/config';
import { DatabaseModule } from '@genhub/database';
import {
  OPEN_STATUSES,
  RunTaskUseCase,
  STUCK_TASK_SWEEP_LOCK,
  SweepStuckTasksUseCase,
  TaskEngineModule,
  TaskFinisher,
} from '@genhub/task-engine';
import { TASK_CODES } from '@genhub/errors';
import { MetricsService, ObservabilityModule } from '@genhub/observability';
import { QueueModule, QueueName } from '@genhub/queue';
import { TaskRepository } from '@genhub/tasks-data-access';
import { InMemoryObjectStorage, InMemoryStorageModule, insertTask } from '@genhub/testing';

const GRACE_MS = 2000;
const LIMIT_MS = 60_000;
const PRICE = 1000;

/** The sweeper as the task-worker wires it, over the real ledger, PostgreSQL and Redis. */
describe('stuck-task sweeper (PostgreSQL + Redis)', () => {
  let moduleRef: TestingModule;
  let ds: DataSource;
  let tasks: TaskRepository;
  let ledger: LedgerRepository;
  let sweeper: SweepStuckTasksUseCase;
  let queues: Record<string, Queue>;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot({
          pieces: [
            LogConfig,
            DatabaseConfig,
            RedisConfig,
            StorageConfig,
            SecurityConfig,
            TaskConfig,
            ProvidersConfig,
          ],
          env: { ...process.env, LOG_LEVEL: 'silent' },
        }),
        ObservabilityModule.forRoot('sweeper-test'),
        DatabaseModule,
        QueueModule.forRoot(),
        InMemoryStorageModule.with(new InMemoryObjectStorage()),
        // As the task-worker binds it: a terminal write settles in its own statement.
        TaskEngineModule.forWorker(),
      ],
    }).compile();
    await moduleRef.init();
    ds = moduleRef.get(getDataSourceToken());
    tasks = moduleRef.get(TaskRepository);
    ledger = moduleRef.get(LedgerRepository);
    sweeper = moduleRef.get(SweepStuckTasksUseCase);
    queues = Object.fromEntries(
      Object.values(QueueName).map((q) => [q, moduleRef.get<Queue>(getQueueToken(q))]),
    );
  });
  afterAll(() => moduleRef?.close());

  /** A submitted task as the gateway writes it: reservation + task row in one transaction. */
  async function submitted(opts: { webhook?: string } = {}) {
    const accountId = randomUUID();
    const id = randomUUID();
    await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 5000 });
    await ds.transaction(async (m) => {
      const reserved = await ledger.reserve(m, {
        accountId,
        taskId: id,
        amountUnits: PRICE,
        model: 'local/simulator/test',
        category: 'test',
        apiKeyId: null,
      });
      expect(reserved.ok).toBe(true);
      await insertTask(m, {
        id,
        accountId,
        model: 'local/simulator/test',
        channel: 'stable',
        category: 'test',
        input: { prompt: 'stuck', duration_ms: 60_000 },
        webhookUrl: opts.webhook ?? null,
        outputPrefix: null,
        priceUnits: PRICE,
        timeLimitMs: LIMIT_MS,
      });
    });
    return { id, accountId };
  }

  /** Moves the task's clock back past its time limit + grace, as if it had hung that long. */
  async function backdate(id: string, column: 'created_at' | 'started_at') {
    await ds.query(
      `UPDATE tasks.tasks SET ${column} = ${column} - make_interval(secs => $2) WHERE id = $1`,
      [id, (LIMIT_MS + GRACE_MS + 1000) / 1000],
    );
  }

  async function task(t: { id: string; accountId: string }) {
    return tasks.findOwnedTask(t.accountId, t.id);
  }

  it('fails tasks stuck processing or created with 5004, releases once, queues the webhook; leaves healthy ones', async () => {
    const hung = await submitted({ webhook: 'https://example.com/hook' });
    const claimed = await tasks.claimForRun(hung.id, OPEN_STATUSES);
    expect(claimed?.attempt).toBe(1);
    if (!claimed) throw new Error('not claimed');
    await backdate(hung.id, 'started_at');
    const lost = await submitted(); // its job never ran: still created long after submit
    await backdate(lost.id, 'created_at');
    const healthy = await submitted();
    await tasks.claimForRun(healthy.id, OPEN_STATUSES);
    await backdate(healthy.id, 'created_at'); // waited long in the queue, but started just now
    const young = await submitted();

    const metrics = moduleRef.get(MetricsService);
    const sweptBefore = await metrics.registry.getSingleMetricAsString('genhub_tasks_swept_total');
    // Two sweepers at once: one holds the lock (or goes first); the tasks fail once in all.
    const results = await Promise.all([
      sweeper.execute({ graceMs: GRACE_MS }),
      sweeper.execute({ graceMs: GRACE_MS }),
    ]);
    expect(results.reduce<number>((sum, n) => sum + (n ?? 0), 0)).toBe(2);

    for (const t of [hung, lost]) {
      expect(await task(t)).toMatchObject({
        status: 'failed',
        code: 5004,
        error: TASK_CODES[5004].message,
        outputs: [],
      });
    }
    expect(await task(healthy)).toMatchObject({ status: 'processing', attempt: 1 });
    expect(await task(young)).toMatchObject({ status: 'created', attempt: 0 });
    expect(sweptBefore).toMatch(/genhub_tasks_swept_total\{from="processing"[^}]*} 0/);
    expect(sweptBefore).toMatch(/genhub_tasks_swept_total\{from="created"[^}]*} 0/);
    const swept = await metrics.registry.getSingleMetricAsString('genhub_tasks_swept_total');
    expect(swept).toMatch(/genhub_tasks_swept_total\{from="processing"[^}]*} 1/);
    expect(swept).toMatch(/genhub_tasks_swept_total\{from="created"[^}]*} 1/);

    // Released in the terminal statement (no settle job); the webhook for the one that has one.
    for (const t of [hung, lost]) {
      expect(await ledger.balanceOf(t.accountId)).toMatchObject({
        balanceUnits: 5000,
        reservedUnits: 0,
      });
      expect(await queues.billing.getJob(`settle-${t.id}`)).toBeUndefined();
    }
    // Its delivery, with the body, was opened by the sweep's statement, due for the dispatchers
    // to claim (decision 0141); the one without a webhook has none.
    const [delivery]: { body: string; due: boolean }[] = await ds.query(
      `SELECT body, due_at <= now() AS due FROM webhooks.deliveries WHERE task_id = $1`,
      [hung.id],
    );
    expect(delivery.due).toBe(true);
    expect(JSON.parse(delivery.body)).toMatchObject({
      id: hung.id,
      status: 'failed',
      code: 5004,
      error: TASK_CODES[5004].message,
      outputs: [],
    });
    expect(
      await ds.query(`SELECT 1 FROM webhooks.deliveries WHERE task_id = $1`, [lost.id]),
    ).toEqual([]);
    expect(await ledger.balanceOf(healthy.accountId)).toMatchObject({ reservedUnits: PRICE });

    // Nothing can finish a swept task afterwards: a queued job skips it, the hung run is superseded.
    expect((await moduleRef.get(RunTaskUseCase).execute({ taskId: lost.id })).outcome).toBe(
      'skipped',
    );
    const late = await moduleRef.get(TaskFinisher).finish(claimed, {
      completed: {
        outputs: ['x'],
        outputKeys: [],
        timings: { queue_wait: 0, worker_init: 0, api_call: 0, save: 0, run_overhead: 0, total: 0 },
      },
    });
    expect(late).toBeUndefined();
    // A second sweep finds nothing more.
    expect(await sweeper.execute({ graceMs: GRACE_MS })).toBe(0);
  });

  it('two racing terminal writes on one stuck task: exactly one wins', async () => {
    const t = await submitted();
    const claimed = await tasks.claimForRun(t.id, OPEN_STATUSES);
    if (!claimed) throw new Error('not claimed');
    const finisher = moduleRef.get(TaskFinisher);
    const failed = { failed: { code: 5004, error: TASK_CODES[5004].message, timings: null } };
    const wins = await Promise.all([
      finisher.finish(claimed, failed),
      finisher.finish(claimed, failed),
      finisher.finish(claimed, failed),
    ]);
    expect(wins.filter(Boolean)).toHaveLength(1);
    // Released once, by the winner's own statement.
    const rows: { state: string }[] = await ds.query(
      `SELECT state FROM billing.reservations WHERE task_id = $1`,
      [t.id],
    );
    expect(rows).toEqual([{ state: 'released' }]);
    expect(await ledger.balanceOf(t.accountId)).toMatchObject({
      balanceUnits: 5000,
      reservedUnits: 0,
    });
  });

  it('skips while another sweeper holds the lock, and sweeps once it is free', async () => {
    const t = await submitted();
    await backdate(t.id, 'created_at');
    const other = new Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [STUCK_TASK_SWEEP_LOCK]);
      expect(await sweeper.execute({ graceMs: GRACE_MS })).toBeUndefined();
      expect(await task(t)).toMatchObject({ status: 'created' });
      await other.query('SELECT pg_advisory_unlock($1)', [STUCK_TASK_SWEEP_LOCK]);
    } finally {
      await other.end();
    }
    expect(await sweeper.execute({ graceMs: GRACE_MS })).toBe(1);
    expect(await task(t)).toMatchObject({ status: 'failed', code: 5004 });
  });
});
