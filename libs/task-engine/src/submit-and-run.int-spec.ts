import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import { Test, TestingModule } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import Redis from 'ioredis';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
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
import { APP_ERRORS, AppException, TASK_CODES } from '@genhub/errors';
import { ObservabilityModule } from '@genhub/observability';
import { ModelCatalogue, SIMULATOR_MODEL } from '@genhub/providers';
import { QueueModule, QueueName, RunTaskJob } from '@genhub/queue';
import { TaskRepository } from '@genhub/tasks-data-access';
import {
  RESERVATION_PORT,
  ReservationPort,
  ReservationRequest,
  ReservationShortfall,
} from './ports/reservation.port';
import { SETTLEMENT_PORT, SettlementPort } from './ports/settlement.port';
import { WEBHOOK_DELIVERY_PORT, WebhookDeliveryPort } from './ports/webhook-delivery.port';
import { EstimatedDurationService } from './services/estimated-duration.service';
import { TasksFeatureModule } from './tasks-feature.module';
import { InMemoryObjectStorage, InMemoryStorageModule, until } from '@genhub/testing';
import { GetResultUseCase } from './use-cases/get-result/get-result.use-case';
import { RunTaskUseCase } from './use-cases/run-task/run-task.use-case';
import {
  RESERVATION_LANES,
  RESERVATION_LANES_FROM_IN_FLIGHT,
  RESERVATIONS_PER_ACCOUNT,
  SubmitTaskInput,
  SubmitTaskUseCase,
} from './use-cases/submit-task/submit-task.use-case';
import { SyncSubmitUseCase } from './use-cases/submit-task/sync-submit.use-case';
import { RUN_JOB_MAX_INPUT_BYTES } from './use-cases/submit-task/run-job.util';
import { SyncWaiter, UNSUBSCRIBE_AFTER_MS } from './services/sync-waiter.service';
import {
  SETTLEMENT_LANES_FROM_IN_FLIGHT,
  SETTLEMENT_LANES,
} from './services/task-finisher.service';
import { laneOf } from './util/account-batcher.util';

const storage = new InMemoryObjectStorage();

const reservations: ReservationRequest[] = [];
let reservationAnswer: { ok: true } | ({ ok: false } & ReservationShortfall) = { ok: true };
/** How long the reservation statement takes (seconds), as a hot balance row's lock would. */
let reservationSeconds = 0;
/**
 * Reserves nothing for real: the `reserved` CTE yields its row when the answer
 * is ok; each statement notes the transaction it ran in (group commit).
 */
const reservation: ReservationPort = {
  reservationCte: (request) => {
    reservations.push(request);
    return {
      sql: `reserved AS (SELECT 1 AS one FROM pg_sleep($2::float8) WHERE $1::boolean),
        reservation_tx AS (
          INSERT INTO public.test_reservation_tx (task_id, tx) VALUES ($3::uuid, txid_current()))`,
      params: [reservationAnswer.ok, reservationSeconds, request.taskId],
      yields: 'reserved',
    };
  },
  shortfall: async () => {
    if (reservationAnswer.ok) throw new Error('shortfall asked after a reservation');
    return reservationAnswer;
  },
};

/**
 * Records each settlement request (the run's ending; capture or release is the
 * task flow's rule) in a table, from the run's own terminal statement and only if it won.
 */
const settlement: SettlementPort = {
  settlementCte: (request, when) => ({
    sql: `settled AS (
      INSERT INTO public.test_settlements (task_id, outcome, tx)
      SELECT $1::uuid, $2, txid_current() WHERE ${when}
      RETURNING task_id)`,
    params: [request.taskId, request.status],
    yields: 'settled',
  }),
};

/** Records each webhook delivery the terminal statement opens, only if that statement won. */
const webhookDelivery: WebhookDeliveryPort = {
  deliveryCte: (request, when) => ({
    sql: `delivery_opened AS (
      INSERT INTO public.test_deliveries (task_id, url, body) SELECT $1::uuid, $2, $3 WHERE ${when}
      RETURNING task_id)`,
    params: [request.taskId, request.url, request.body],
    yields: 'delivery_opened',
  }),
};

/** A copy of the simulator with a 300 ms time limit. */
const LIMITED = {
  ...SIMULATOR_MODEL,
  runType: 'limited',
  slug: 'local/simulator/limited',
  timeLimitMs: 300,
};

describe('tasks feature (PostgreSQL + Redis)', () => {
  let moduleRef: TestingModule;
  let submit: SubmitTaskUseCase;
  let sync: SyncSubmitUseCase;
  let run: RunTaskUseCase;
  let result: GetResultUseCase;
  let tasks: TaskRepository;
  let ds: DataSource;
  let queues: Record<string, Queue>;
  const accountId = randomUUID();

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
            PepperConfig,
            TaskConfig,
            ProvidersConfig,
          ],
          env: {
            ...process.env,
            LOG_LEVEL: 'silent',
            CONTENT_BLOCKLIST: 'forbidden,bad word',
            SYNC_TIMEOUT_MS: '1000',
          },
        }),
        ObservabilityModule.forRoot('tasks-test'),
        DatabaseModule,
        QueueModule.forRoot(),
        InMemoryStorageModule.with(storage),
        TasksFeatureModule.forGateway({
          reservation: { provide: RESERVATION_PORT, useValue: reservation },
        }),
        TasksFeatureModule.forWorker({
          settlement: { provide: SETTLEMENT_PORT, useValue: settlement },
          webhookDelivery: { provide: WEBHOOK_DELIVERY_PORT, useValue: webhookDelivery },
        }),
      ],
    })
      .overrideProvider(ModelCatalogue)
      .useValue(new ModelCatalogue([SIMULATOR_MODEL, LIMITED]))
      .compile();
    await moduleRef.init();
    submit = moduleRef.get(SubmitTaskUseCase);
    sync = moduleRef.get(SyncSubmitUseCase);
    run = moduleRef.get(RunTaskUseCase);
    result = moduleRef.get(GetResultUseCase);
    tasks = moduleRef.get(TaskRepository);
    ds = moduleRef.get(getDataSourceToken());
    queues = Object.fromEntries(
      Object.values(QueueName).map((q) => [q, moduleRef.get<Queue>(getQueueToken(q))]),
    );
    await ds.query(
      `CREATE TABLE IF NOT EXISTS public.test_settlements (task_id uuid NOT NULL, outcome text NOT NULL, tx bigint NOT NULL)`,
    );
    await ds.query(
      `CREATE TABLE IF NOT EXISTS public.test_reservation_tx (task_id uuid NOT NULL, tx bigint NOT NULL)`,
    );
    await ds.query(
      `CREATE TABLE IF NOT EXISTS public.test_deliveries (task_id uuid NOT NULL, url text NOT NULL, body text NOT NULL)`,
    );
  });

  async function settlementsOf(taskId: string): Promise<string[]> {
    const rows: { outcome: string }[] = await ds.query(
      `SELECT outcome FROM public.test_settlements WHERE task_id = $1`,
      [taskId],
    );
    return rows.map((r) => r.outcome);
  }
  afterAll(() => moduleRef.close());

  const sim = (body: unknown, more: Partial<SubmitTaskInput> = {}): SubmitTaskInput => ({
    accountId,
    provider: 'local',
    model: 'simulator',
    runType: 'test',
    body,
    ...more,
  });

  async function refusal(input: SubmitTaskInput): Promise<AppException> {
    const error = await submit.execute(input).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof AppException))
      throw new Error(`expected AppException, got ${String(error)}`);
    return error;
  }

  async function taskCount(): Promise<number> {
    const rows: { n: number }[] = await ds.query(
      `SELECT count(*)::int AS n FROM tasks.tasks WHERE account_id = $1`,
      [accountId],
    );
    return rows[0].n;
  }

  describe('submit refusals, in order of precedence', () => {
    it('checks provider, model, body, content, webhook, prefix, balance — and writes nothing', async () => {
      const before = await taskCount();
      const all = { webhook: 'ftp://x', prefix: '../x' };
      let e = await refusal({ ...sim({ extra: 1 }, all), provider: 'nope', model: 'zzz' });
      expect([e.code, APP_ERRORS[e.code].status, e.message]).toEqual([
        'unknown_provider',
        400,
        "Invalid provider 'nope'. Model slug must have the form {provider_id}/{model_id}/{run_type}",
      ]);
      e = await refusal({ ...sim({ extra: 1 }, all), model: 'zzz' });
      expect([e.code, APP_ERRORS[e.code].status, e.message]).toEqual([
        'not_found',
        404,
        'Not found',
      ]);
      e = await refusal(sim({ prompt: 'forbidden', duration_ms: -1, extra: 1 }, all));
      expect(e.code).toBe('invalid_request');
      expect(e.details.fields?.sort()).toEqual(['duration_ms', 'extra']);
      expect(e.message).toMatch(/duration_ms must not be less than 0/);
      e = await refusal(sim({ prompt: 'so FORBIDDEN!' }, all));
      expect([e.code, APP_ERRORS[e.code].status]).toEqual(['content_blocked', 403]);
      e = await refusal(sim({ prompt: 'forbiddenness is fine', channel: 'economy' }, all));
      expect([e.code, e.details.fields]).toEqual(['invalid_request', ['webhook']]);
      e = await refusal(sim({ prompt: 'ok' }, { prefix: '../x' }));
      expect([e.code, e.details.fields]).toEqual(['invalid_request', ['prefix']]);
      reservationAnswer = { ok: false, availableUnits: 500, currency: 'CNY' };
      try {
        e = await refusal(sim({ prompt: 'ok' }));
      } finally {
        reservationAnswer = { ok: true };
      }
      expect([e.code, APP_ERRORS[e.code].status, e.message]).toEqual([
        'insufficient_balance',
        402,
        'Insufficient balance. Current: ¥0.001, required: ¥0.001. Please top up and try again.',
      ]);
      expect(await taskCount()).toBe(before);
    });

    it('refuses bodies that are not objects, wrong types, unknown channels and private webhooks', async () => {
      expect((await refusal(sim([1]))).code).toBe('invalid_request');
      expect((await refusal(sim({ prompt: 5 }))).details.fields).toEqual(['prompt']);
      expect((await refusal(sim({ prompt: 'p', channel: 'gold' }))).details.fields).toEqual([
        'channel',
      ]);
      expect(
        (await refusal(sim({ prompt: 'p' }, { webhook: 'http://127.0.0.1/x' }))).details.fields,
      ).toEqual(['webhook']);
      expect((await refusal(sim({ prompt: 'bad word here' }))).code).toBe('content_blocked');
    });
  });

  it('acknowledges, reserves the price, and hands the job to BullMQ through the outbox', async () => {
    const ack = await submit.execute(sim({ prompt: 'hello' }));
    expect(Object.keys(ack).sort()).toEqual(['estimated_duration', 'id', 'status']);
    expect(ack.status).toBe('created');
    expect(reservations.at(-1)).toMatchObject({
      taskId: ack.id,
      amountUnits: 1000,
      model: 'local/simulator/test',
      category: 'test',
    });
    const job = await until(() => queues.tasks.getJob(`task-${ack.id}`));
    // Version 2: the task's fixed fields, created_at as the row has it (decision 0122).
    const row = await tasks.findOwnedTask(accountId, ack.id);
    expect(job.data).toEqual({
      v: 2,
      taskId: ack.id,
      task: {
        accountId,
        model: 'local/simulator/test',
        channel: 'stable',
        category: 'test',
        input: { prompt: 'hello' },
        webhookUrl: null,
        outputPrefix: null,
        priceUnits: 1000,
        timeLimitMs: SIMULATOR_MODEL.timeLimitMs,
        createdAt: expect.any(String),
      },
    });
    expect(new Date((job.data as RunTaskJob).task?.createdAt ?? '')).toEqual(row?.createdAt);
    const pending = await result.execute({ accountId, taskId: ack.id });
    expect(pending).toEqual({
      body: { id: ack.id, status: 'processing' },
      retryAfter: 3,
      task: expect.objectContaining({
        id: ack.id,
        status: 'created',
        model: 'local/simulator/test',
      }),
    });
    await expect(result.execute({ accountId: randomUUID(), taskId: ack.id })).rejects.toMatchObject(
      {
        code: 'not_found',
      },
    );
    await expect(result.execute({ accountId, taskId: 'nope' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('reserves one account’s waiting submits together: RESERVATIONS_PER_ACCOUNT alone, the rest in one transaction', async () => {
    reservationSeconds = 0.1;
    try {
      const acks = await Promise.all(
        Array.from({ length: 6 }, (_, i) => submit.execute(sim({ prompt: `line ${i}` }))),
      );
      expect(acks.every((a) => a.status === 'created')).toBe(true);
      const groups: { n: number }[] = await ds.query(
        `SELECT count(*)::int AS n FROM public.test_reservation_tx
          WHERE task_id = ANY($1::uuid[]) GROUP BY tx ORDER BY n`,
        [acks.map((a) => a.id)],
      );
      // Two start at once (one statement each); the four that waited share one commit.
      expect(groups.map((g) => g.n)).toEqual([
        ...Array(RESERVATIONS_PER_ACCOUNT).fill(1),
        6 - RESERVATIONS_PER_ACCOUNT,
      ]);
    } finally {
      reservationSeconds = 0;
    }
  });

  /** `count` new account ids that share one of `lanes` lanes. */
  function newAccountsInOneLane(count: number, lanes: number): string[] {
    const lane = laneOf(accountId, lanes);
    const accounts: string[] = [];
    while (accounts.length < count) {
      const id = randomUUID();
      if (laneOf(id, lanes) === lane) accounts.push(id);
    }
    return accounts;
  }

  it('under load, reserves submits of different accounts in shared transactions when they share a lane', async () => {
    const accounts = newAccountsInOneLane(3 * RESERVATION_LANES_FROM_IN_FLIGHT, RESERVATION_LANES);
    reservationSeconds = 0.05;
    try {
      const acks = await Promise.all(
        accounts.map((id, i) => submit.execute(sim({ prompt: `lane ${i}` }, { accountId: id }))),
      );
      expect(acks.every((a) => a.status === 'created')).toBe(true);
      const rows: { tx: string }[] = await ds.query(
        `SELECT tx FROM public.test_reservation_tx WHERE task_id = ANY($1::uuid[])`,
        [acks.map((a) => a.id)],
      );
      expect(rows).toHaveLength(accounts.length);
      // Alone on their own lines each would commit alone; past the threshold the rest
      // wait on their lane and share commits.
      expect(new Set(rows.map((r) => r.tx)).size).toBeLessThan(accounts.length);
    } finally {
      reservationSeconds = 0;
    }
  });

  /**
   * Submits one task per account given, runs them all at once, checks each
   * completed and settled exactly once; answers how many transactions settled them.
   */
  async function settleTogether(accounts: string[]): Promise<number> {
    const acks = await Promise.all(
      accounts.map((id, i) => submit.execute(sim({ prompt: `end ${i}` }, { accountId: id }))),
    );
    const outcomes = await Promise.all(acks.map((a) => run.execute({ taskId: a.id })));
    expect(outcomes.map((o) => o.outcome)).toEqual(accounts.map(() => 'completed'));
    const rows: { task_id: string; tx: string }[] = await ds.query(
      `SELECT task_id, tx FROM public.test_settlements WHERE task_id = ANY($1::uuid[])`,
      [acks.map((a) => a.id)],
    );
    expect(rows.map((r) => r.task_id).sort()).toEqual(acks.map((a) => a.id).sort());
    return new Set(rows.map((r) => r.tx)).size;
  }

  it('settles one account’s runs that end together in shared commits, each exactly once', async () => {
    // Twelve terminal writes, one batch at a time: the ones that waited shared a transaction.
    expect(await settleTogether(Array(12).fill(accountId))).toBeLessThan(12);
  });

  it('under load, settles runs of different accounts in shared transactions when they share a lane', async () => {
    const accounts = newAccountsInOneLane(3 * SETTLEMENT_LANES_FROM_IN_FLIGHT, SETTLEMENT_LANES);
    // Each account's line alone would give each run a transaction of its own; past
    // SETTLEMENT_LANES_FROM_IN_FLIGHT at once, the rest wait on their lane and share one.
    expect(await settleTogether(accounts)).toBeLessThan(accounts.length);
  });

  it('runs to completed: PNG outputs under the prefix, exact result shape, settled, webhook job', async () => {
    const ack = await submit.execute(
      sim(
        { prompt: 'three', num_outputs: 3 },
        { prefix: 'team-a/2026', webhook: 'https://example.com/hook?x=1' },
      ),
    );
    expect((await run.execute({ taskId: ack.id })).outcome).toBe('completed');
    expect((await run.execute({ taskId: ack.id })).outcome).toBe('skipped');
    const { body, retryAfter } = await result.execute({ accountId, taskId: ack.id });
    expect(retryAfter).toBeUndefined();
    expect(Object.keys(body).sort()).toEqual(
      ['code', 'created_at', 'error', 'id', 'model', 'outputs', 'status', 'timings'].sort(),
    );
    if (body.status !== 'completed') throw new Error('not completed');
    expect(body).toMatchObject({ id: ack.id, model: 'local/simulator/test', code: 0, error: null });
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
    expect(Object.keys(body.timings).sort()).toEqual(
      ['api_call', 'queue_wait', 'run_overhead', 'save', 'total', 'worker_init'].sort(),
    );
    expect(Object.values(body.timings).every((v) => Number.isInteger(v) && v >= 0)).toBe(true);
    expect(body.outputs).toEqual(
      [0, 1, 2].map((n) => `http://cdn.test/outputs/team-a/2026/${ack.id}/${n}.png`),
    );
    for (const url of body.outputs) {
      const stored = storage.objects.get(storage.keyFromUrl(url) as string);
      expect((await sharp(stored?.data).metadata()).format).toBe('png');
    }
    // Captured by the run's terminal statement, once: no settle job.
    expect(await settlementsOf(ack.id)).toEqual(['completed']);
    expect(await queues.billing.getJob(`settle-${ack.id}`)).toBeUndefined();
    // The delivery job carries ids; the delivery (URL and body) was opened by the same statement.
    const hook = await until(() => queues.webhooks.getJob(`webhook-${ack.id}`));
    expect(hook.data).toEqual({ v: 2, taskId: ack.id, accountId });
    const [delivery]: { url: string; body: string }[] = await ds.query(
      `SELECT url, body FROM public.test_deliveries WHERE task_id = $1`,
      [ack.id],
    );
    expect(delivery.url).toBe('https://example.com/hook?x=1');
    const payload = JSON.parse(delivery.body) as Record<string, unknown>;
    expect(Object.keys(payload).sort()).toEqual(
      ['code', 'created_at', 'error', 'id', 'input', 'model', 'outputs', 'status'].sort(),
    );
    expect(payload).toMatchObject({
      status: 'completed',
      outputs: body.outputs,
      input: { prompt: 'three', num_outputs: 3 },
      created_at: body.created_at,
    });
  });

  it('fails with fail_code: catalogue text, no timings, release', async () => {
    const ack = await submit.execute(sim({ prompt: 'x', fail_code: 1201 }));
    expect((await run.execute({ taskId: ack.id })).outcome).toBe('failed');
    const { body } = await result.execute({ accountId, taskId: ack.id });
    expect(body).toEqual({
      id: ack.id,
      model: 'local/simulator/test',
      status: 'failed',
      code: 1201,
      outputs: [],
      error: TASK_CODES[1201].message,
      created_at: expect.any(String),
    });
    expect(await settlementsOf(ack.id)).toEqual(['failed']);
  });

  it('fails with 5004 when the model time limit passes, aborting the adapter', async () => {
    const ack = await submit.execute({
      ...sim({ prompt: 'x', duration_ms: 60_000 }),
      runType: 'limited',
    });
    const started = Date.now();
    expect((await run.execute({ taskId: ack.id })).outcome).toBe('failed');
    expect(Date.now() - started).toBeLessThan(3000);
    const { body } = await result.execute({ accountId, taskId: ack.id });
    expect(body).toMatchObject({ code: 5004, error: TASK_CODES[5004].message });
  });

  it('a superseded run loses the race and deletes its outputs', async () => {
    const ack = await submit.execute(sim({ prompt: 'race', duration_ms: 300 }));
    const first = run.execute({ taskId: ack.id }).then((r) => r.outcome);
    await until(
      async () => (await tasks.findOwnedTask(accountId, ack.id))?.status === 'processing',
    );
    const second = run.execute({ taskId: ack.id }).then((r) => r.outcome); // a stalled job picked up again
    expect(await second).toBe('completed');
    expect(await first).toBe('superseded');
    const { body } = await result.execute({ accountId, taskId: ack.id });
    if (body.status !== 'completed') throw new Error('not completed');
    expect(body.outputs).toEqual([`http://cdn.test/outputs/${ack.id}/0-r2.png`]);
    expect([...storage.objects.keys()].filter((k) => k.includes(ack.id))).toEqual([
      `outputs/${ack.id}/0-r2.png`,
    ]);
    expect(await settlementsOf(ack.id)).toEqual(['completed']); // the loser settled nothing
  });

  describe('a run job carrying its task (version 2)', () => {
    /** Runs the task from its job as the worker does: the job's data, no read first. */
    async function runFromJob(taskId: string) {
      const job = await until(() => queues.tasks.getJob(`task-${taskId}`));
      return run.execute(job.data as RunTaskJob);
    }
    const claims = () => jest.spyOn(tasks, 'claimForRun');
    afterEach(() => jest.restoreAllMocks());

    it('keeps a large input out of the job: version 1, the worker reads the row', async () => {
      const ack = await submit.execute(sim({ prompt: 'x'.repeat(RUN_JOB_MAX_INPUT_BYTES) }));
      const job = await until(() => queues.tasks.getJob(`task-${ack.id}`));
      expect(job.data).toEqual({ v: 1, taskId: ack.id });
      const claim = claims();
      expect((await runFromJob(ack.id)).outcome).toBe('completed');
      expect(claim).toHaveBeenCalledTimes(1);
    });

    it('a run that ends at once claims the task in its terminal write: no claim of its own', async () => {
      const ack = await submit.execute(sim({ prompt: 'quick', num_outputs: 0 }));
      const claim = claims();
      expect((await runFromJob(ack.id)).outcome).toBe('completed');
      expect(claim).not.toHaveBeenCalled();
      const row = await tasks.findOwnedTask(accountId, ack.id);
      expect(row).toMatchObject({ status: 'completed', attempt: 1, outputs: [] });
      expect(row?.startedAt?.getTime()).toBeGreaterThanOrEqual(row?.createdAt.getTime() ?? NaN);
      expect(row?.timings?.total).toBeGreaterThanOrEqual(0);
      expect(await settlementsOf(ack.id)).toEqual(['completed']);
      // The job again (a duplicate delivery): nothing left to run, nothing settled twice.
      expect((await runFromJob(ack.id)).outcome).toBe('skipped');
      expect(await settlementsOf(ack.id)).toEqual(['completed']);
    });

    it('a longer run claims after CLAIM_AFTER_MS: processing while it runs, attempt 1', async () => {
      const ack = await submit.execute(sim({ prompt: 'slow', duration_ms: 400 }));
      const claim = claims();
      const outcome = runFromJob(ack.id);
      await until(
        async () => (await tasks.findOwnedTask(accountId, ack.id))?.status === 'processing',
      );
      expect((await outcome).outcome).toBe('completed');
      expect(claim).toHaveBeenCalledTimes(1);
      expect(await tasks.findOwnedTask(accountId, ack.id)).toMatchObject({
        status: 'completed',
        attempt: 1,
      });
    });

    it('claims before storing an output, whose name carries the attempt', async () => {
      const ack = await submit.execute(sim({ prompt: 'one image', num_outputs: 1 }));
      const claim = claims();
      expect((await runFromJob(ack.id)).outcome).toBe('completed');
      expect(claim).toHaveBeenCalledTimes(1);
      const { body } = await result.execute({ accountId, taskId: ack.id });
      expect(body).toMatchObject({ outputs: [`http://cdn.test/outputs/${ack.id}/0.png`] });
    });

    it('an earlier run that claimed and stalled: the job’s copy loses, claims attempt 2 and completes', async () => {
      const ack = await submit.execute(sim({ prompt: 'stalled', duration_ms: 400 }));
      const stalled = run.execute({ taskId: ack.id }).then((r) => r.outcome); // claims attempt 1
      await until(
        async () => (await tasks.findOwnedTask(accountId, ack.id))?.status === 'processing',
      );
      const again = await runFromJob(ack.id);
      expect(again.outcome).toBe('completed');
      expect(await stalled).toBe('superseded');
      expect(await tasks.findOwnedTask(accountId, ack.id)).toMatchObject({ attempt: 2 });
      expect(await settlementsOf(ack.id)).toEqual(['completed']);
    });

    it('a task deleted before its run: the run writes and stores nothing', async () => {
      const ack = await submit.execute(sim({ prompt: 'gone', num_outputs: 1 }));
      await ds.query(`UPDATE tasks.tasks SET status = 'deleted' WHERE id = $1`, [ack.id]);
      expect((await runFromJob(ack.id)).outcome).toBe('skipped');
      expect([...storage.objects.keys()].filter((k) => k.includes(ack.id))).toEqual([]);
      expect(await settlementsOf(ack.id)).toEqual([]);
    });
  });

  describe('sync', () => {
    // A short linger, so the subscription test sees it dropped.
    beforeAll(() => (moduleRef.get(SyncWaiter).unsubscribeAfterMs = 200));
    afterAll(() => (moduleRef.get(SyncWaiter).unsubscribeAfterMs = UNSUBSCRIBE_AFTER_MS));

    /** The id of the task a pending sync call submitted, once its row is there. */
    const submittedWithPrompt = (prompt: string) =>
      until(async () => {
        const rows: { id: string }[] = await ds.query(
          `SELECT id FROM tasks.tasks WHERE account_id = $1 AND input->>'prompt' = $2`,
          [accountId, prompt],
        );
        return rows[0]?.id;
      });

    it('answers the result as soon as the task finishes', async () => {
      const pending = sync.execute(sim({ prompt: 'sync', duration_ms: 100 }));
      const id = await submittedWithPrompt('sync');
      void run.execute({ taskId: id });
      const started = Date.now();
      const body = await pending;
      expect(body).toMatchObject({ id, status: 'completed', code: 0 });
      expect(Date.now() - started).toBeLessThan(900);
    });

    it('holds the terminal-notice subscription only while sync calls are under way', async () => {
      const waiter = moduleRef.get(SyncWaiter);
      const redis = new Redis(process.env.REDIS_URL as string);
      const channel = `${process.env.QUEUE_PREFIX}:task-terminal`;
      const subscribers = async () =>
        ((await redis.pubsub('NUMSUB', channel)) as [string, number])[1];
      try {
        // Released by the test above: dropped after the linger.
        await until(async () => (await subscribers()) === 0, 3000);
        const pending = sync.execute(sim({ prompt: 'sync again', duration_ms: 0 }));
        expect(await until(async () => (await subscribers()) === 1 && 1, 3000)).toBe(1);
        const id = await submittedWithPrompt('sync again');
        await run.execute({ taskId: id });
        // Woken by the notice on the fresh subscription, well before SYNC_TIMEOUT_MS.
        const started = Date.now();
        expect(await pending).toMatchObject({ id, status: 'completed' });
        expect(Date.now() - started).toBeLessThan(900);
        expect(waiter.subscribedToNotices).toBe(true);
        await until(async () => (await subscribers()) === 0, 3000);
        expect(waiter.subscribedToNotices).toBe(false);
      } finally {
        redis.disconnect();
      }
    });

    it('answers the processing shape after SYNC_TIMEOUT_MS', async () => {
      const started = Date.now();
      const body = await sync.execute(sim({ prompt: 'nobody runs me' }));
      expect(Object.keys(body).sort()).toEqual(['id', 'status']);
      expect(body.status).toBe('processing');
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    });
  });

  it('estimated_duration is null until 3 runs of the model and channel, then seconds', async () => {
    const estimates = moduleRef.get(EstimatedDurationService);
    const body = { prompt: 'e', channel: 'official' };
    for (let i = 0; i < 3; i++) {
      estimates.clear();
      const ack = await submit.execute(sim(body));
      expect(ack.estimated_duration).toBeNull();
      await run.execute({ taskId: ack.id });
    }
    estimates.clear();
    const ack = await submit.execute(sim(body));
    expect(ack.estimated_duration).toBe(1);
  });
});
