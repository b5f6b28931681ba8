import { randomUUID } from 'node:crypto';
import { INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { LedgerRepository } from '@genhub/billing-data-access';
import { BillingFeatureModule } from '@genhub/billing-feature';
import {
  ConfigModule,
  DatabaseConfig,
  LogConfig,
  ProvidersConfig,
  RedisConfig,
  PepperConfig,
  SecurityConfig,
  StorageConfig,
  TaskConfig,
} from '@genhub/config';
import { DatabaseModule } from '@genhub/database';
import {
  HANDOVER_DELETE_MS,
  HANDOVER_GRACE_MS,
  OutboxRelay,
  OutboxVacuum,
  SubmitTaskUseCase,
  TaskEngineModule,
} from '@genhub/task-engine';
import { ObservabilityModule } from '@genhub/observability';
import { FairStage, fairStageOn, QueueModule, QueueName, redisConnection } from '@genhub/queue';
import { OutboxRepository, TaskRepository } from '@genhub/tasks-data-access';
import {
  createTestDatabase,
  deleteQueuePrefix,
  dropTestDatabase,
  InMemoryObjectStorage,
  InMemoryStorageModule,
  sleep,
  testQueuePrefix,
  until,
} from '@genhub/testing';
import { RunTaskProcessor } from './run-task.processor';

/**
 * A database and queue prefix of this file's own: another spec's relay or
 * worker sharing the run's database must not hand over (or run) these rows.
 */
const own = { DATABASE_URL: '', QUEUE_PREFIX: testQueuePrefix('outbox-crash') };

const platform = () => [
  ConfigModule.forRoot({
    pieces: [
      LogConfig,
      DatabaseConfig,
      RedisConfig,
      StorageConfig,
      SecurityConfig,
      PepperConfig,
      TaskConfig,
      ProvidersConfig,
    ],
    env: { ...process.env, LOG_LEVEL: 'silent', ...own },
  }),
  ObservabilityModule.forRoot('outbox-crash-test'),
  DatabaseModule,
  QueueModule.forRoot(),
  InMemoryStorageModule.with(new InMemoryObjectStorage()),
];

/** A gateway process: submit (reservation + task + outbox row in one statement) and its relay. */
async function startGateway(): Promise<INestApplicationContext> {
  const moduleRef = await Test.createTestingModule({
    imports: [...platform(), TaskEngineModule.forGateway()],
  }).compile();
  return moduleRef.init();
}

/** The billing app's ledger (no relay of its own). */
async function startBilling(): Promise<INestApplicationContext> {
  const moduleRef = await Test.createTestingModule({
    imports: [...platform(), BillingFeatureModule],
  }).compile();
  return moduleRef.init();
}

/**
 * A task-worker process: its relay (unless left out), the run-task BullMQ
 * worker, and the settlement in the run's terminal statement (the ledger's SQL).
 */
async function startWorker(options: { relay: boolean }): Promise<INestApplicationContext> {
  let builder = Test.createTestingModule({
    imports: [...platform(), TaskEngineModule.forWorker()],
    providers: [RunTaskProcessor],
  });
  if (!options.relay)
    builder = builder.overrideProvider(OutboxRelay).useValue({ handOver: () => undefined });
  return (await builder.compile()).init();
}

/**
 * The outbox after crashes (issue 10): a submit committed by a process that
 * died before enqueueing is handed over by a NEW process's relay, and a relay
 * that dies between enqueueing and deleting its rows re-sends them harmlessly
 * (deterministic job ids). Either way the task completes once and is captured once (in
 * the run's terminal statement: no settle job, docs/decisions/0090).
 */
describe('outbox relay across crashes (PostgreSQL + Redis)', () => {
  let billingQueue: Queue;
  let tasksQueue: Queue;
  let stage: FairStage;
  /** Handed over by a relay: in the fair stage (waiting, or running under a lease), or in the run queue. */
  const handedOver = async (taskId: string) =>
    (await stage.holds(taskId)) || (await tasksQueue.getJob(`task-${taskId}`)) !== undefined;
  const opened: INestApplicationContext[] = [];
  let database: string;

  beforeAll(async () => {
    const db = await createTestDatabase('outbox_crash');
    database = db.name;
    own.DATABASE_URL = db.url;
    const connection = redisConnection(process.env.REDIS_URL as string);
    const prefix = own.QUEUE_PREFIX;
    tasksQueue = new Queue(QueueName.Tasks, { connection, prefix });
    stage = fairStageOn(tasksQueue, prefix, 60_000);
    billingQueue = new Queue(QueueName.Billing, { connection, prefix });
    opened.push(await startBilling());
  });
  afterAll(async () => {
    await billingQueue?.close();
    await tasksQueue?.close();
    for (const app of opened.reverse()) await app.close().catch(() => undefined);
    await dropTestDatabase(database);
    await deleteQueuePrefix(process.env.REDIS_URL as string, own.QUEUE_PREFIX);
  });

  async function account(): Promise<string> {
    const accountId = randomUUID();
    await opened[0]
      .get(LedgerRepository)
      .openAccount({ accountId, currency: 'USD', initialUnits: 5000 });
    return accountId;
  }

  /** Submits of instant simulator tasks through `gateway` for `accountId`, by prompt. */
  function instantSubmits(gateway: INestApplicationContext, accountId: string) {
    return (prompt: string) =>
      gateway.get(SubmitTaskUseCase).execute({
        accountId,
        accountLevel: 'Bronze',
        provider: 'local',
        model: 'simulator',
        runType: 'test',
        body: { prompt, duration_ms: 0 },
      });
  }

  async function outboxRowsFor(ds: DataSource, taskId: string): Promise<string[]> {
    const rows: { job_id: string }[] = await ds.query(
      `SELECT job_id FROM tasks.outbox WHERE payload->>'taskId' = $1 ORDER BY id`,
      [taskId],
    );
    return rows.map((r) => r.job_id);
  }

  async function expectCompletedAndCapturedOnce(ds: DataSource, accountId: string, id: string) {
    const tasks = new TaskRepository(ds);
    const task = await until(async () => {
      const t = await tasks.findOwnedTask(accountId, id);
      return t?.status === 'completed' && t;
    }, 10_000);
    expect(task.attempt).toBe(1);
    await sleep(300); // time for any duplicate to show up
    // Settled in the run's terminal statement: no settle job at all.
    expect(await billingQueue.getJob(`settle-${id}`)).toBeUndefined();
    const usage: { n: number }[] = await ds.query(
      `SELECT count(*)::int AS n FROM billing.records WHERE task_id = $1 AND type = 'usage'`,
      [id],
    );
    expect(usage[0].n).toBe(1);
    expect(await opened[0].get(LedgerRepository).balanceOf(accountId)).toMatchObject({
      balanceUnits: 4000,
      reservedUnits: 0,
    });
  }

  it('a submit committed just before its process died is enqueued by a fresh relay and runs once', async () => {
    const accountId = await account();
    const gateway = await startGateway();
    // The crash window: the commit happened, the hand-over did not.
    await gateway.get(OutboxRelay).onApplicationShutdown();
    const ack = await gateway.get(SubmitTaskUseCase).execute({
      accountId,
      accountLevel: 'Bronze',
      provider: 'local',
      model: 'simulator',
      runType: 'test',
      body: { prompt: 'crash', duration_ms: 50 },
    });
    const ds = gateway.get(DataSource);
    expect(await outboxRowsFor(ds, ack.id)).toEqual([`task-${ack.id}`]);
    await gateway.close();
    expect(await handedOver(ack.id)).toBe(false);

    const worker = await startWorker({ relay: true });
    opened.push(worker);
    const wds = worker.get(DataSource);
    await expectCompletedAndCapturedOnce(wds, accountId, ack.id);
    expect(await outboxRowsFor(wds, ack.id)).toEqual([]);
    await worker.close(); // its relay must not serve the next test
    opened.pop();
  }, 30_000);

  it('hands rows over at once and deletes those of a burst together; shutdown deletes what is left', async () => {
    const accountId = await account(); // room for five tasks
    const gateway = await startGateway();
    opened.push(gateway);
    const remove = jest.spyOn(gateway.get(OutboxRepository), 'remove');
    const submit = instantSubmits(gateway, accountId);
    const ds = gateway.get(DataSource);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await submit(`burst ${i}`)).id);
    // Enqueued straight away, long before the poll's grace would pass.
    for (const id of ids) await until(() => handedOver(id), 10_000);
    await sleep(HANDOVER_DELETE_MS * 3);
    for (const id of ids) expect(await outboxRowsFor(ds, id)).toEqual([]);
    // One DELETE for the burst (two if the submits straddled a window), not one per row.
    expect(remove.mock.calls.length).toBeLessThanOrEqual(2);
    expect(remove.mock.calls.flatMap(([, rowIds]) => rowIds)).toHaveLength(4);

    // A submit just before shutdown: enqueued, and its row deleted before the pool closes.
    const last = await submit('last');
    await gateway.close();
    opened.pop();
    expect(await handedOver(last.id)).toBe(true);
    // Read through the billing app's pool: the gateway's is closed.
    expect(await outboxRowsFor(opened[0].get(DataSource), last.id)).toEqual([]);
  }, 30_000);

  it('a relay that dies between enqueueing and deleting its rows re-sends them without a second run', async () => {
    const accountId = await account();
    const gateway = await startGateway();
    opened.push(gateway);
    const relay = gateway.get(OutboxRelay);
    await relay.onApplicationShutdown(); // drive the relay by hand
    const outbox = gateway.get(OutboxRepository);
    const remove = jest
      .spyOn(outbox, 'remove')
      .mockRejectedValueOnce(new Error('process died before marking the rows sent'));
    const ack = await gateway.get(SubmitTaskUseCase).execute({
      accountId,
      accountLevel: 'Bronze',
      provider: 'local',
      model: 'simulator',
      runType: 'test',
      body: { prompt: 'twice?', duration_ms: 50 },
    });
    const ds = gateway.get(DataSource);
    await sleep(HANDOVER_GRACE_MS + 200); // the poll leaves younger rows to their writer
    await expect(relay.drainOnce()).rejects.toThrow('process died');
    // The task is handed over, yet its row is still in the outbox (the transaction rolled back).
    expect(await handedOver(ack.id)).toBe(true);
    expect(await outboxRowsFor(ds, ack.id)).toEqual([`task-${ack.id}`]);

    // A worker (with no relay of its own) runs it; the row is still waiting when it is done.
    const worker = await startWorker({ relay: false });
    opened.push(worker);
    const tasks = new TaskRepository(ds);
    await until(
      async () => (await tasks.findOwnedTask(accountId, ack.id))?.status === 'completed',
      10_000,
    );
    expect(await outboxRowsFor(ds, ack.id)).toEqual([`task-${ack.id}`]);
    // The relay comes back and sends it again: staged again and taken by the worker's runner,
    // whose run finds the task ended and does nothing (its claim is conditional).
    remove.mockRestore();
    expect(await relay.drainOnce()).toBe(1);
    expect(await outboxRowsFor(ds, ack.id)).toEqual([]);
    await until(async () => !(await stage.holds(ack.id)), 5000);
    await sleep(300);
    await expectCompletedAndCapturedOnce(ds, accountId, ack.id);
  }, 30_000);

  it('vacuums the outbox once its relay has deleted `every` rows (no autovacuum needed)', async () => {
    const accountId = await account(); // room for five tasks
    const gateway = await startGateway();
    opened.push(gateway);
    gateway.get(OutboxVacuum).every = 3;
    const ds = gateway.get(DataSource);
    const vacuums = async () => {
      const rows: { n: number }[] = await ds.query(
        `SELECT vacuum_count::int AS n FROM pg_stat_user_tables
          WHERE schemaname = 'tasks' AND relname = 'outbox'`,
      );
      return rows[0].n;
    };
    const before = await vacuums();
    const submit = instantSubmits(gateway, accountId);
    const first = await submit('one');
    await until(() => handedOver(first.id), 10_000);
    await sleep(HANDOVER_DELETE_MS * 3); // deleted: one row of three
    expect(await vacuums()).toBe(before);
    for (const prompt of ['two', 'three']) await submit(prompt);
    await until(async () => (await vacuums()) === before + 1, 10_000);
    await gateway.close();
    opened.pop();
  }, 30_000);
});
