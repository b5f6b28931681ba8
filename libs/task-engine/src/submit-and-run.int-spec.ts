import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import { TestingModule } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import Redis from 'ioredis';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { LedgerRepository } from '@genhub/billing-data-access';
import { laneOf } from '@genhub/database';
import { APP_ERRORS, AppException, TASK_CODES } from '@genhub/errors';
import { ModelCatalogue, SIMULATOR_MODEL } from '@genhub/providers';
import { JobName, PubSubChannel, QueueName, RunTaskJob } from '@genhub/queue';
import { TaskRepository } from '@genhub/tasks-data-access';
import {
  EstimatedDurationService,
  GetResultUseCase,
  SyncWaiter,
  UNSUBSCRIBE_AFTER_MS,
} from '@genhub/tasks-feature';
import { InMemoryObjectStorage, InMemoryStorageModule, sleep, until } from '@genhub/testing';
import { engineTestingModule } from './engine-testing.fixture';
import { OPEN_STATUSES } from './rules/task-lifecycle.rules';
import { RunTaskUseCase } from './run/run-task.use-case';
import { SubmitTaskInput, SubmitTaskUseCase } from './submit/submit-task.use-case';
import { SyncSubmitUseCase } from './submit/sync-submit.use-case';
import { ACCOUNT_LINES } from './task-engine.constants';

const storage = new InMemoryObjectStorage();

/** Each account's opening balance: enough for every task here. */
const OPENING_UNITS = 10_000_000_000;

/** A copy of the simulator with a 300 ms time limit. */
const LIMITED = {
  ...SIMULATOR_MODEL,
  runType: 'limited',
  slug: 'local/simulator/limited',
  timeLimitMs: 300,
};

/**
 * Submit and run through the task engine, on the real ledger (billing) and
 * webhook deliveries: what a submit reserved, how a run settled and what it
 * opened are read from their tables.
 */
describe('task engine: submit and run (PostgreSQL + Redis, the real ledger)', () => {
  let moduleRef: TestingModule;
  let submit: SubmitTaskUseCase;
  let sync: SyncSubmitUseCase;
  let run: RunTaskUseCase;
  let result: GetResultUseCase;
  let tasks: TaskRepository;
  let ledger: LedgerRepository;
  let ds: DataSource;
  let queues: Record<string, Queue>;
  const accountId = randomUUID();

  beforeAll(async () => {
    moduleRef = await engineTestingModule({
      name: 'task-engine-submit-run-test',
      storage: InMemoryStorageModule.with(storage),
      // These specs take the run jobs from the run queue themselves (no worker): first in first
      // out, with no fair stage between (fair scheduling: apps/task-worker's fair-share spec).
      env: {
        ...process.env,
        CONTENT_BLOCKLIST: 'forbidden,bad word',
        SYNC_TIMEOUT_MS: '1000',
        FAIR_SCHEDULING: 'false',
      },
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
    ledger = moduleRef.get(LedgerRepository);
    ds = moduleRef.get(getDataSourceToken());
    queues = Object.fromEntries(
      Object.values(QueueName).map((q) => [q, moduleRef.get<Queue>(getQueueToken(q))]),
    );
    await openAccounts([accountId]);
  });
  afterAll(() => moduleRef.close());

  async function openAccounts(accounts: string[]): Promise<void> {
    for (const id of accounts)
      await ledger.openAccount({ accountId: id, currency: 'USD', initialUnits: OPENING_UNITS });
  }

  /** The task's reservation as the ledger holds it (undefined: none). */
  async function reservationOf(taskId: string) {
    const [row]: {
      task_id: string;
      amount_units: number;
      model: string;
      category: string;
      state: string;
    }[] = await ds.query(
      `SELECT task_id, amount_units::int AS amount_units, model, category, state
         FROM billing.reservations WHERE task_id = $1`,
      [taskId],
    );
    return row;
  }

  /** How the task's reservation ended ('open' while unsettled) and the usage records it left. */
  async function settlementOf(taskId: string): Promise<{ state?: string; usage: number }> {
    const [{ usage }]: { usage: number }[] = await ds.query(
      `SELECT count(*)::int AS usage FROM billing.records WHERE task_id = $1 AND type = 'usage'`,
      [taskId],
    );
    return { state: (await reservationOf(taskId))?.state, usage };
  }

  /**
   * Runs `work` while another transaction holds these accounts' balance rows
   * (a hot row) for `ms`: the statements that need them queue behind it.
   */
  async function behindHeldBalances<T>(
    accounts: string[],
    work: () => Promise<T>,
    ms = 100,
  ): Promise<T> {
    const holder = ds.createQueryRunner();
    await holder.connect();
    try {
      await holder.startTransaction();
      await holder.query(
        `SELECT 1 FROM billing.balances WHERE account_id = ANY($1::uuid[]) FOR UPDATE`,
        [accounts],
      );
      const pending = work();
      pending.catch(() => undefined); // awaited below, after the commit
      await sleep(ms);
      await holder.commitTransaction();
      return await pending;
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
  }

  /** How many of these tasks' reservations each transaction wrote (one `now()` per transaction). */
  async function groupsBy(column: 'created_at' | 'settled_at', taskIds: string[]) {
    const groups: { n: number }[] = await ds.query(
      `SELECT count(*)::int AS n FROM billing.reservations
        WHERE task_id = ANY($1::uuid[]) GROUP BY ${column} ORDER BY n`,
      [taskIds],
    );
    return groups.map((g) => g.n);
  }

  const sim = (body: unknown, more: Partial<SubmitTaskInput> = {}): SubmitTaskInput => ({
    accountId,
    accountLevel: 'Bronze',
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

  /** The tasks and reservations written for these accounts. */
  async function written(accounts: string[]): Promise<{ tasks: number; reservations: number }> {
    const [row]: { tasks: number; reservations: number }[] = await ds.query(
      `SELECT (SELECT count(*)::int FROM tasks.tasks WHERE account_id = ANY($1::uuid[])) AS tasks,
              (SELECT count(*)::int FROM billing.reservations WHERE account_id = ANY($1::uuid[])) AS reservations`,
      [accounts],
    );
    return row;
  }

  describe('submit refusals, in order of precedence', () => {
    it('checks provider, model, body, content, webhook, prefix, balance — and writes nothing', async () => {
      // Short of the price (1000 units): 500, in CNY.
      const poor = randomUUID();
      await ledger.openAccount({ accountId: poor, currency: 'CNY', initialUnits: 500 });
      const before = await written([accountId, poor]);
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
      e = await refusal(sim({ prompt: 'ok' }, { accountId: poor }));
      expect([e.code, APP_ERRORS[e.code].status, e.message]).toEqual([
        'insufficient_balance',
        402,
        'Insufficient balance. Current: ¥0.001, required: ¥0.001. Please top up and try again.',
      ]);
      expect(await written([accountId, poor])).toEqual(before);
      expect(await ledger.balanceOf(poor)).toMatchObject({ balanceUnits: 500, reservedUnits: 0 });
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
    expect(await reservationOf(ack.id)).toEqual({
      task_id: ack.id,
      amount_units: 1000,
      model: 'local/simulator/test',
      category: 'test',
      state: 'open',
    });
    // The run job carries ids only (the worker claims the task and reads it in one statement),
    // and how its account is scheduled.
    const job = await until(() => queues.tasks.getJob(`task-${ack.id}`));
    expect(job.data).toEqual({ v: 1, taskId: ack.id, accountId, level: 'Bronze' });
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

  it('reserves one account’s waiting submits together: ACCOUNT_LINES.perLine alone, the rest in one transaction', async () => {
    // The balance row is hot: the first submit waits on its lock while the others gather.
    const acks = await behindHeldBalances([accountId], () =>
      Promise.all(
        Array.from({ length: 6 }, (_, i) => submit.execute(sim({ prompt: `line ${i}` }))),
      ),
    );
    expect(acks.every((a) => a.status === 'created')).toBe(true);
    // Rows one transaction wrote share its now(): one submit alone, the five that waited in one commit.
    expect(
      await groupsBy(
        'created_at',
        acks.map((a) => a.id),
      ),
    ).toEqual([...Array(ACCOUNT_LINES.perLine).fill(1), 6 - ACCOUNT_LINES.perLine]);
  });

  /** `count` new accounts (opened) that share one of `lanes` lanes. */
  async function newAccountsInOneLane(count: number, lanes: number): Promise<string[]> {
    const lane = laneOf(randomUUID(), lanes);
    const accounts: string[] = [];
    while (accounts.length < count) {
      const id = randomUUID();
      if (laneOf(id, lanes) === lane) accounts.push(id);
    }
    await openAccounts(accounts);
    return accounts;
  }

  it('under load, reserves submits of different accounts in shared transactions when they share a lane', async () => {
    const accounts = await newAccountsInOneLane(
      3 * (ACCOUNT_LINES.lanesFromInFlight as number),
      ACCOUNT_LINES.lanes as number,
    );
    const acks = await behindHeldBalances(accounts, () =>
      Promise.all(
        accounts.map((id, i) => submit.execute(sim({ prompt: `lane ${i}` }, { accountId: id }))),
      ),
    );
    expect(acks.every((a) => a.status === 'created')).toBe(true);
    const groups = await groupsBy(
      'created_at',
      acks.map((a) => a.id),
    );
    expect(groups.reduce((a, b) => a + b, 0)).toBe(accounts.length);
    // Alone on their own lines each would commit alone; past the threshold the rest
    // wait on their lane and share commits.
    expect(groups.length).toBeLessThan(accounts.length);
    expect(Math.max(...groups)).toBeGreaterThan(1);
  });

  /**
   * Submits one task per account given, runs them all at once, checks each
   * completed and was captured exactly once; answers how many transactions settled them.
   */
  async function settleTogether(accounts: string[]): Promise<number> {
    const acks = await Promise.all(
      accounts.map((id, i) => submit.execute(sim({ prompt: `end ${i}` }, { accountId: id }))),
    );
    const outcomes = await Promise.all(acks.map((a) => run.execute({ taskId: a.id })));
    expect(outcomes.map((o) => o.outcome)).toEqual(accounts.map(() => 'completed'));
    const ids = acks.map((a) => a.id);
    const rows: { task_id: string; state: string; usage: number }[] = await ds.query(
      `SELECT r.task_id, r.state,
              (SELECT count(*)::int FROM billing.records c WHERE c.task_id = r.task_id) AS usage
         FROM billing.reservations r WHERE r.task_id = ANY($1::uuid[])`,
      [ids],
    );
    expect(rows.map((r) => r.task_id).sort()).toEqual([...ids].sort());
    expect(rows.every((r) => r.state === 'captured' && r.usage === 1)).toBe(true);
    return (await groupsBy('settled_at', ids)).length;
  }

  it('settles one account’s runs that end together in shared commits, each exactly once', async () => {
    // Twelve terminal writes, one batch at a time: the ones that waited shared a transaction.
    expect(await settleTogether(Array(12).fill(accountId))).toBeLessThan(12);
  });

  it('under load, settles runs of different accounts in shared transactions when they share a lane', async () => {
    const accounts = await newAccountsInOneLane(
      3 * (ACCOUNT_LINES.lanesFromInFlight as number),
      ACCOUNT_LINES.lanes as number,
    );
    // Each account's line alone would give each run a transaction of its own; past
    // lanesFromInFlight at once, the rest wait on their lane and share one.
    expect(await settleTogether(accounts)).toBeLessThan(accounts.length);
  });

  it('runs to completed: PNG outputs under the prefix, exact result shape, captured, webhook due', async () => {
    // The dispatchers' wake-up (decision 0141), watched from before the run.
    const notices = new Redis(process.env.REDIS_URL as string);
    const woken: string[] = [];
    notices.on('message', (channel: string) => woken.push(channel));
    await notices.subscribe(`${process.env.QUEUE_PREFIX}:${PubSubChannel.WebhooksDue}`);
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
    expect(await settlementOf(ack.id)).toEqual({ state: 'captured', usage: 1 });
    expect(await queues.billing.getJob(`settle-${ack.id}`)).toBeUndefined();
    // The delivery (URL and body) was opened by the same statement, due now for the
    // dispatchers to claim (decision 0141), and they were woken: no job, no outbox row.
    const deliveries: { url: string; body: string; due: boolean; claimed_until: Date | null }[] =
      await ds.query(
        `SELECT url, body, due_at <= now() AS due, claimed_until
           FROM webhooks.deliveries WHERE task_id = $1`,
        [ack.id],
      );
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    expect(delivery.url).toBe('https://example.com/hook?x=1');
    expect([delivery.due, delivery.claimed_until]).toEqual([true, null]);
    await until(() => woken.length > 0);
    notices.disconnect();
    expect(await queues.webhooks.getJob(`webhook-${ack.id}`)).toBeUndefined();
    expect(
      await ds.query(`SELECT 1 FROM tasks.outbox WHERE payload->>'taskId' = $1 AND job_name = $2`, [
        ack.id,
        JobName.DeliverWebhook,
      ]),
    ).toEqual([]);
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

  it('fails with fail_code: catalogue text, no timings, released', async () => {
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
    expect(await settlementOf(ack.id)).toEqual({ state: 'released', usage: 0 });
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
    expect(await settlementOf(ack.id)).toEqual({ state: 'released', usage: 0 });
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
    // Captured once, by the winner: the loser settled nothing.
    expect(await settlementOf(ack.id)).toEqual({ state: 'captured', usage: 1 });
  });

  describe('the run job: ids only, the worker claims first', () => {
    /** Runs the task from its job as the worker does: the job's data. */
    async function runFromJob(taskId: string) {
      const job = await until(() => queues.tasks.getJob(`task-${taskId}`));
      expect(job.data).toEqual({ v: 1, taskId, accountId, level: 'Bronze' });
      return run.execute(job.data as RunTaskJob);
    }
    const claims = () => jest.spyOn(tasks, 'claimForRun');
    afterEach(() => jest.restoreAllMocks());

    it('claims before running (processing, attempt 1), then completes and captures', async () => {
      const ack = await submit.execute(sim({ prompt: 'slow', duration_ms: 400 }));
      const claim = claims();
      const outcome = runFromJob(ack.id);
      await until(
        async () => (await tasks.findOwnedTask(accountId, ack.id))?.status === 'processing',
      );
      expect(claim).toHaveBeenCalledTimes(1);
      expect(claim).toHaveBeenCalledWith(ack.id, [...OPEN_STATUSES]);
      expect(await tasks.findOwnedTask(accountId, ack.id)).toMatchObject({
        status: 'processing',
        attempt: 1,
      });
      expect(await settlementOf(ack.id)).toEqual({ state: 'open', usage: 0 });
      expect((await outcome).outcome).toBe('completed');
      const row = await tasks.findOwnedTask(accountId, ack.id);
      expect(row).toMatchObject({ status: 'completed', attempt: 1 });
      expect(row?.startedAt?.getTime()).toBeGreaterThanOrEqual(row?.createdAt.getTime() ?? NaN);
      expect(row?.timings?.total).toBeGreaterThanOrEqual(0);
      expect(await settlementOf(ack.id)).toEqual({ state: 'captured', usage: 1 });
    });

    it('a run that ends at once claims too; the job again is skipped and settles nothing twice', async () => {
      const ack = await submit.execute(sim({ prompt: 'quick', num_outputs: 0 }));
      const claim = claims();
      expect((await runFromJob(ack.id)).outcome).toBe('completed');
      expect(claim).toHaveBeenCalledTimes(1);
      expect(await tasks.findOwnedTask(accountId, ack.id)).toMatchObject({
        status: 'completed',
        attempt: 1,
        outputs: [],
      });
      expect(await settlementOf(ack.id)).toEqual({ state: 'captured', usage: 1 });
      const balance = await ledger.balanceOf(accountId);
      // The job again (a duplicate delivery): nothing left to run, nothing settled twice.
      expect((await runFromJob(ack.id)).outcome).toBe('skipped');
      expect(await settlementOf(ack.id)).toEqual({ state: 'captured', usage: 1 });
      expect(await tasks.findOwnedTask(accountId, ack.id)).toMatchObject({ attempt: 1 });
      expect((await ledger.balanceOf(accountId))?.balanceUnits).toBe(balance?.balanceUnits);
    });

    it('claims before storing an output, whose name carries no attempt on the first', async () => {
      const ack = await submit.execute(sim({ prompt: 'one image', num_outputs: 1 }));
      const claim = claims();
      expect((await runFromJob(ack.id)).outcome).toBe('completed');
      expect(claim).toHaveBeenCalledTimes(1);
      const { body } = await result.execute({ accountId, taskId: ack.id });
      expect(body).toMatchObject({ outputs: [`http://cdn.test/outputs/${ack.id}/0.png`] });
    });

    it('an earlier run that claimed and stalled: the job’s run claims attempt 2, completes, and the first is superseded', async () => {
      const ack = await submit.execute(sim({ prompt: 'stalled', duration_ms: 400 }));
      const stalled = run.execute({ taskId: ack.id }).then((r) => r.outcome); // claims attempt 1
      await until(
        async () => (await tasks.findOwnedTask(accountId, ack.id))?.status === 'processing',
      );
      const again = await runFromJob(ack.id);
      expect(again.outcome).toBe('completed');
      expect(await stalled).toBe('superseded');
      expect(await tasks.findOwnedTask(accountId, ack.id)).toMatchObject({
        status: 'completed',
        attempt: 2,
      });
      expect(await settlementOf(ack.id)).toEqual({ state: 'captured', usage: 1 });
    });

    it('a task deleted before its run: the run writes, stores and settles nothing', async () => {
      const ack = await submit.execute(sim({ prompt: 'gone', num_outputs: 1 }));
      await ds.query(`UPDATE tasks.tasks SET status = 'deleted' WHERE id = $1`, [ack.id]);
      expect((await runFromJob(ack.id)).outcome).toBe('skipped');
      expect([...storage.objects.keys()].filter((k) => k.includes(ack.id))).toEqual([]);
      const [row]: { status: string; attempt: number }[] = await ds.query(
        `SELECT status, attempt FROM tasks.tasks WHERE id = $1`,
        [ack.id],
      );
      expect(row).toEqual({ status: 'deleted', attempt: 0 });
      expect(await settlementOf(ack.id)).toEqual({ state: 'open', usage: 0 });
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
      const channel = `${process.env.QUEUE_PREFIX}:${PubSubChannel.TaskTerminal}`;
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
