import { randomUUID } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { Queue, QueueEvents } from 'bullmq';
import { DataSource } from 'typeorm';
import { LedgerRepository } from '@genhub/billing-data-access';
import { MetricsService } from '@genhub/observability';
import {
  JOB_OPTIONS,
  JobName,
  QueueName,
  type SettleTaskJob,
  redisConnection,
} from '@genhub/queue';
import { BillingModule } from '../billing.module';

/** The billing app as it runs: real PostgreSQL, real Redis (this run's prefix), real BullMQ worker. */
describe('SettleTaskProcessor (BullMQ + PostgreSQL)', () => {
  let app: INestApplication;
  let queue: Queue;
  let events: QueueEvents;
  let ledger: LedgerRepository;
  let dataSource: DataSource;

  beforeAll(async () => {
    const env = { ...process.env, PORT: '3999', LOG_LEVEL: 'silent' };
    const moduleRef = await Test.createTestingModule({
      imports: [BillingModule.forRoot(env)],
    }).compile();
    app = moduleRef.createNestApplication(new FastifyAdapter(), { logger: false });
    await app.init();
    dataSource = app.get(DataSource);
    ledger = app.get(LedgerRepository);
    const connection = redisConnection(process.env.REDIS_URL as string);
    const prefix = process.env.QUEUE_PREFIX as string;
    queue = new Queue(QueueName.Billing, { connection, prefix });
    events = new QueueEvents(QueueName.Billing, { connection, prefix });
    await events.waitUntilReady();
  });
  afterAll(async () => {
    await events?.close();
    await queue?.close();
    await app?.close();
  });

  async function settle(data: SettleTaskJob | Record<string, unknown>, jobId = randomUUID()) {
    const job = await queue.add(JobName.SettleTask, data as SettleTaskJob, {
      ...JOB_OPTIONS[JobName.SettleTask],
      jobId,
    });
    return job.waitUntilFinished(events, 10_000);
  }

  async function reservedTask(accountId: string, amountUnits = 1000): Promise<string> {
    const taskId = randomUUID();
    const result = await dataSource.transaction((m) =>
      ledger.reserve(m, {
        accountId,
        taskId,
        amountUnits,
        model: 'local/simulator/test',
        category: 'test',
        apiKeyId: null,
      }),
    );
    expect(result.ok).toBe(true);
    return taskId;
  }

  it('captures once however often the event is delivered, and counts it', async () => {
    const accountId = randomUUID();
    await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 5000 });
    const taskId = await reservedTask(accountId);
    const job: SettleTaskJob = { v: 1, taskId, accountId, outcome: 'capture' };
    const results = await Promise.all([settle(job), settle(job), settle(job)]);
    expect(results.sort()).toEqual(['captured', 'unchanged', 'unchanged']);
    expect(await settle({ ...job, outcome: 'release' })).toBe('unchanged');
    expect(await ledger.balanceOf(accountId)).toMatchObject({
      balanceUnits: 4000,
      reservedUnits: 0,
    });
    const metrics = await app.get(MetricsService).registry.metrics();
    expect(metrics).toMatch(/billing_settlements_total\{outcome="captured"[^}]*\} 1/);
    expect(metrics).toMatch(/billing_settlements_total\{outcome="unchanged"[^}]*\} 3/);
    expect(metrics).toMatch(/billing_open_reservations\{[^}]*\} \d+/);
  });

  it('releases a failed task: no record, balance restored', async () => {
    const accountId = randomUUID();
    await ledger.openAccount({ accountId, currency: 'CNY', initialUnits: 1000 });
    const taskId = await reservedTask(accountId);
    expect(await settle({ v: 1, taskId, accountId, outcome: 'release' })).toBe('released');
    expect(await ledger.balanceOf(accountId)).toMatchObject({
      balanceUnits: 1000,
      reservedUnits: 0,
    });
    const [{ n }] = await dataSource.query(
      `SELECT count(*)::int AS n FROM billing.records WHERE account_id = $1`,
      [accountId],
    );
    expect(n).toBe(1);
  });

  it('fails a malformed payload for good, without retries', async () => {
    const jobId = randomUUID();
    await expect(
      settle({ v: 1, taskId: 'x', accountId: randomUUID(), outcome: 'capture' }, jobId),
    ).rejects.toThrow(/taskId must be a UUID/);
    const job = await queue.getJob(jobId);
    expect(job?.attemptsMade).toBe(1);
  });
});
