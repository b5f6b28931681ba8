import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import { TestingModule } from '@nestjs/testing';
import type { Queue } from 'bullmq';
import { LedgerRepository } from '@genhub/billing-data-access';
import { SettleTaskUseCase } from '@genhub/billing-feature';
import { BillingFeatureModule } from '@genhub/billing-feature';
import { RedisConfig } from '@genhub/config';
import { databaseIdentity, GroupCommit } from '@genhub/database';
import type { AppException } from '@genhub/errors';
import { QueueName, startWebhookJobId } from '@genhub/queue';
import { TaskRepository, type WebhookFormat } from '@genhub/tasks-data-access';
import { WebhookDeliveryRepository } from '@genhub/webhooks-data-access';
import { GetResultUseCase } from '@genhub/tasks-feature';
import { InMemoryObjectStorage, InMemoryStorageModule, sleep, until } from '@genhub/testing';
import { DataSource } from 'typeorm';
import { engineTestingModule } from './engine-testing.fixture';
import { RecoveryQueues } from './recovery/recovery-queues.service';
import { ReplayWebhooksUseCase } from './recovery/replay-webhooks.use-case';
import { RequeueOpenTasksUseCase } from './recovery/requeue-open-tasks.use-case';
import { DeleteTaskUseCase } from './delete/delete-task.use-case';
import { RunTaskUseCase } from './run/run-task.use-case';
import { StartWebhook } from './run/start-webhook.service';
import { allowedSources } from './rules/task-lifecycle.rules';
import { submitStatement } from './statements/task-engine.statements';
import { SubmitTaskUseCase } from './submit/submit-task.use-case';

/**
 * The money table end to end (issue 18): each path a task takes, through the
 * real submit, run, delete and billing settle, on the real ledger. The
 * simulator's price is 1000 units (0.001 USD) per task.
 */
const PRICE = 1000;
const storage = new InMemoryObjectStorage();

describe('task engine: who pays for what (PostgreSQL + Redis, the real ledger)', () => {
  let moduleRef: TestingModule;
  let submit: SubmitTaskUseCase;
  let run: RunTaskUseCase;
  let del: DeleteTaskUseCase;
  let result: GetResultUseCase;
  let settle: SettleTaskUseCase;
  let ledger: LedgerRepository;
  let tasks: TaskRepository;
  let ds: DataSource;
  let billingQueue: Queue;
  let webhooksQueue: Queue;
  let recoveryQueues: RecoveryQueues;

  beforeAll(async () => {
    moduleRef = await engineTestingModule({
      name: 'task-engine-test',
      storage: InMemoryStorageModule.with(storage),
      env: process.env,
      imports: [BillingFeatureModule],
    }).compile();
    await moduleRef.init();
    submit = moduleRef.get(SubmitTaskUseCase);
    run = moduleRef.get(RunTaskUseCase);
    del = moduleRef.get(DeleteTaskUseCase);
    result = moduleRef.get(GetResultUseCase);
    settle = moduleRef.get(SettleTaskUseCase);
    ledger = moduleRef.get(LedgerRepository);
    tasks = moduleRef.get(TaskRepository);
    ds = moduleRef.get(DataSource);
    billingQueue = moduleRef.get<Queue>(getQueueToken(QueueName.Billing));
    webhooksQueue = moduleRef.get<Queue>(getQueueToken(QueueName.Webhooks));
    recoveryQueues = await RecoveryQueues.open(
      moduleRef.get(RedisConfig),
      await databaseIdentity(ds, process.env.DATABASE_URL as string),
    );
  });
  afterAll(async () => {
    await recoveryQueues.close();
    await moduleRef.close();
  });

  /** A fresh account with 10 tasks' worth of balance. */
  async function account(): Promise<string> {
    const accountId = randomUUID();
    await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 10 * PRICE });
    return accountId;
  }

  const submitTo = (
    accountId: string,
    body: Record<string, unknown> = {},
    webhook?: string,
    webhookFormat?: WebhookFormat,
  ) =>
    submit.execute({
      accountId,
      accountLevel: 'Bronze',
      provider: 'local',
      model: 'simulator',
      runType: 'test',
      body: { prompt: 'x', ...body },
      webhook,
      webhookFormat,
    });

  /** The billing app's part of a deletion: its SettleTask job, as the billing processor runs it. */
  async function settleDeletion(taskId: string): Promise<void> {
    const job = await until(() => billingQueue.getJob(`settle-${taskId}`));
    await settle.execute(job.data);
  }

  /** The reservation's state and what the account was charged. */
  async function money(accountId: string, taskId: string) {
    const [reservation]: { state: string }[] = await ds.query(
      `SELECT state FROM billing.reservations WHERE task_id = $1`,
      [taskId],
    );
    const balance = await ledger.balanceOf(accountId);
    return {
      reservation: reservation?.state,
      charged: 10 * PRICE - (balance?.balanceUnits ?? 0),
      reserved: balance?.reservedUnits,
    };
  }

  it('submit reserves the price in the statement that creates the task', async () => {
    const accountId = await account();
    const ack = await submitTo(accountId);
    expect(await money(accountId, ack.id)).toEqual({
      reservation: 'open',
      charged: 0,
      reserved: PRICE,
    });
  });

  it('one account’s concurrent submits: exactly what the balance covers is reserved, the rest refused with 402, nothing written for them', async () => {
    const accountId = await account(); // 10 tasks' worth
    const answers = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => submitTo(accountId, { prompt: `hot ${i}` })),
    );
    const accepted = answers.filter((a) => a.status === 'fulfilled');
    const refused = answers.filter((a) => a.status === 'rejected');
    expect(accepted).toHaveLength(10);
    expect(refused.map((r) => ((r as PromiseRejectedResult).reason as AppException).code)).toEqual(
      Array(30).fill('insufficient_balance'),
    );
    const [{ tasks: taskRows, reservations }] = await ds.query(
      `SELECT (SELECT count(*)::int FROM tasks.tasks WHERE account_id = $1) AS tasks,
              (SELECT count(*)::int FROM billing.reservations WHERE account_id = $1) AS reservations`,
      [accountId],
    );
    expect({ taskRows, reservations }).toEqual({ taskRows: 10, reservations: 10 });
    expect(await ledger.balanceOf(accountId)).toMatchObject({
      balanceUnits: 10 * PRICE,
      reservedUnits: 10 * PRICE,
    });
  });

  /**
   * One submit's reservation through `batcher`, as the submit use case makes it:
   * `before` holds its line (seconds) ahead of the statement, `after` holds the
   * balance row it has just locked. Answers the amount, or `refused …`, and the
   * transaction it ran in.
   */
  function reserveThrough(
    batcher: GroupCommit,
    accountId: string,
    amountUnits: number,
    hold: { before?: number; after?: number } = {},
  ): Promise<{ answer: number | string; tx: string }> {
    const id = randomUUID();
    return batcher.run(accountId, async (manager) => {
      if (hold.before) await manager.query('SELECT pg_sleep($1)', [hold.before]);
      const created = await submitStatement(
        manager,
        { accountId, taskId: id, amountUnits, model: 'm/x', category: 'test', apiKeyId: null },
        {
          id,
          accountId,
          model: 'local/simulator/test',
          channel: 'default',
          category: 'test',
          input: { prompt: 'x' },
          webhookUrl: null,
          outputPrefix: null,
          priceUnits: amountUnits,
          timeLimitMs: 1000,
        },
        { jobName: 'run-task', jobId: `task-${id}`, payload: { v: 1, taskId: id } },
      );
      if (hold.after) await manager.query('SELECT pg_sleep($1)', [hold.after]);
      const [{ tx }] = await manager.query('SELECT txid_current()::text AS tx');
      return { answer: created ? amountUnits : `refused ${amountUnits}`, tx };
    });
  }

  it('group commit: calls that waited together meet the balance in arrival order, each with its own answer', async () => {
    const accountId = randomUUID();
    await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 6 * PRICE });
    const sizes: number[] = [];
    const batcher = new GroupCommit(ds, {
      perLine: 1,
      maxBatch: 64,
      onBatch: (n) => sizes.push(n),
    });
    // The first holds the line while the next four arrive; they go together, in this order.
    const answers = await Promise.all([
      reserveThrough(batcher, accountId, PRICE, { before: 0.2 }),
      reserveThrough(batcher, accountId, 2 * PRICE),
      reserveThrough(batcher, accountId, 2 * PRICE),
      reserveThrough(batcher, accountId, 2 * PRICE),
      reserveThrough(batcher, accountId, PRICE),
    ]);
    expect(sizes).toEqual([1, 4]);
    // 6 in all: 1, 2 and 2 reserved (1 left); the third 2 is refused, and the 1 after it still fits,
    // as if each had run alone in this order (not "everything after the first refusal").
    expect(answers.map((a) => a.answer)).toEqual([
      PRICE,
      2 * PRICE,
      2 * PRICE,
      `refused ${2 * PRICE}`,
      PRICE,
    ]);
    expect(await ledger.balanceOf(accountId)).toMatchObject({ reservedUnits: 6 * PRICE });
  });

  it('lanes: two processes batching the same accounts in opposite arrival orders commit without a deadlock', async () => {
    const [first, second] = [randomUUID(), randomUUID()].sort();
    const [holderOne, holderTwo] = [randomUUID(), randomUUID()];
    for (const accountId of [first, second, holderOne, holderTwo])
      await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 10 * PRICE });
    // Two replicas' batchers, one lane each, whose batches hold both accounts' balance rows
    // (reservations here; the task-worker's settlement lanes take the same rows).
    const replica = () => new GroupCommit(ds, { perLine: 1, lanes: 1, maxBatch: 64 });
    const [one, two] = [replica(), replica()];
    // A first call holds each line while the other two arrive and wait together.
    const [a, b] = await Promise.all([
      Promise.all([
        reserveThrough(one, holderOne, PRICE, { before: 0.1 }),
        reserveThrough(one, second, PRICE, { after: 0.1 }),
        reserveThrough(one, first, PRICE, { after: 0.1 }),
      ]),
      Promise.all([
        reserveThrough(two, holderTwo, PRICE, { before: 0.1 }),
        reserveThrough(two, first, PRICE, { after: 0.1 }),
        reserveThrough(two, second, PRICE, { after: 0.1 }),
      ]),
    ]);
    // Each batch took the rows in account order, so one waited for the other instead of
    // deadlocking (PostgreSQL would abort one after deadlock_timeout and it would re-run call by call).
    expect(a[1].tx).toBe(a[2].tx);
    expect(b[1].tx).toBe(b[2].tx);
    expect([...a, ...b].map((r) => r.answer)).toEqual(Array(6).fill(PRICE));
    for (const accountId of [first, second])
      expect(await ledger.balanceOf(accountId)).toMatchObject({ reservedUnits: 2 * PRICE });
  });

  it("a key's spend limit: a failed run and a deletion give the room back, a completed run keeps it (issue 37)", async () => {
    const accountId = await account();
    const keyId = randomUUID();
    const byKey = (body: Record<string, unknown> = {}) =>
      submit.execute({
        accountId,
        accountLevel: 'Bronze',
        provider: 'local',
        model: 'simulator',
        runType: 'test',
        body: { prompt: 'x', ...body },
        apiKeyId: keyId,
        keySpendLimit: { amountUnits: 2 * PRICE, period: 'day' },
      });
    const used = async (): Promise<number> =>
      (await ds.query(`SELECT used_units FROM billing.key_spend WHERE key_id = $1`, [keyId]))[0]
        .used_units;
    const refused = () =>
      expect(byKey()).rejects.toMatchObject({
        code: 'key_spend_limit_reached',
        message:
          'API key spend limit reached. Limit: $0.002 per day, spent: $0.002, required: $0.001.',
      });

    const failing = await byKey({ fail_code: 1405 });
    const deleted = await byKey();
    await refused();
    await run.execute({ taskId: failing.id });
    expect(await used()).toBe(PRICE);
    await del.execute({ accountId, taskId: deleted.id });
    await settleDeletion(deleted.id);
    expect(await used()).toBe(0);

    const [a, b] = [await byKey(), await byKey()];
    await refused();
    expect((await run.execute({ taskId: a.id })).outcome).toBe('completed');
    expect(await used()).toBe(2 * PRICE);
    await refused();
    const [record] = await ds.query(`SELECT api_key_id FROM billing.records WHERE task_id = $1`, [
      a.id,
    ]);
    expect(record.api_key_id).toBe(keyId);
    await del.execute({ accountId, taskId: b.id });
    await settleDeletion(b.id);
    expect(await used()).toBe(PRICE);
  });

  it('completed: captured once, in the run’s terminal statement', async () => {
    const accountId = await account();
    const ack = await submitTo(accountId);
    expect((await run.execute({ taskId: ack.id })).outcome).toBe('completed');
    expect(await money(accountId, ack.id)).toEqual({
      reservation: 'captured',
      charged: PRICE,
      reserved: 0,
    });
  });

  it('failed: released, nothing charged', async () => {
    const accountId = await account();
    const ack = await submitTo(accountId, { fail_code: 1405 });
    await run.execute({ taskId: ack.id });
    expect(await money(accountId, ack.id)).toEqual({
      reservation: 'released',
      charged: 0,
      reserved: 0,
    });
  });

  it('deleted while created: released', async () => {
    const accountId = await account();
    const ack = await submitTo(accountId);
    await del.execute({ accountId, taskId: ack.id });
    await settleDeletion(ack.id);
    expect(await money(accountId, ack.id)).toEqual({
      reservation: 'released',
      charged: 0,
      reserved: 0,
    });
    expect((await run.execute({ taskId: ack.id })).outcome).toBe('skipped');
  });

  it('deleted while processing: captured, and the run aborted', async () => {
    const accountId = await account();
    const ack = await submitTo(accountId, { duration_ms: 60_000 });
    const running = run.execute({ taskId: ack.id }).then((r) => r.outcome);
    await until(
      async () => (await tasks.findOwnedTask(accountId, ack.id))?.status === 'processing',
    );
    await del.execute({ accountId, taskId: ack.id });
    expect(await running).toBe('deleted');
    await settleDeletion(ack.id);
    expect(await money(accountId, ack.id)).toEqual({
      reservation: 'captured',
      charged: PRICE,
      reserved: 0,
    });
  });

  it('deleted after completing or failing: settled once by the run, never again', async () => {
    const accountId = await account();
    const done = await submitTo(accountId, { num_outputs: 2 });
    await run.execute({ taskId: done.id });
    expect([...storage.objects.keys()].filter((k) => k.includes(done.id))).toHaveLength(2);
    await del.execute({ accountId, taskId: done.id });
    expect([...storage.objects.keys()].filter((k) => k.includes(done.id))).toEqual([]);
    const failed = await submitTo(accountId, { fail_code: 1405 });
    await run.execute({ taskId: failed.id });
    await del.execute({ accountId, taskId: failed.id });
    await sleep(100);
    expect(await billingQueue.getJob(`settle-${done.id}`)).toBeUndefined();
    expect(await billingQueue.getJob(`settle-${failed.id}`)).toBeUndefined();
    expect(await money(accountId, done.id)).toMatchObject({ reservation: 'captured' });
    expect(await money(accountId, failed.id)).toMatchObject({ reservation: 'released' });
    expect((await money(accountId, done.id)).charged).toBe(PRICE);
    await expect(result.execute({ accountId, taskId: done.id })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('recovered: a deletion whose settle job Redis lost is settled by tasks:requeue as the rules say', async () => {
    const accountId = await account();
    const ack = await submitTo(accountId);
    await del.execute({ accountId, taskId: ack.id });
    const lost = await until(() => billingQueue.getJob(`settle-${ack.id}`));
    await lost.remove(); // Redis lost it
    expect(await money(accountId, ack.id)).toMatchObject({ reservation: 'open' });
    const report = await new RequeueOpenTasksUseCase(ds, recoveryQueues).execute({
      dryRun: false,
    });
    expect(report.unsettled_tasks.requeued).toBeGreaterThanOrEqual(1);
    const requeued = await until(() => billingQueue.getJob(`settle-${ack.id}`));
    expect(requeued.data).toMatchObject({ taskId: ack.id, outcome: 'release' });
    await settle.execute(requeued.data);
    expect(await money(accountId, ack.id)).toEqual({
      reservation: 'released',
      charged: 0,
      reserved: 0,
    });
  });

  it('replayed: a fresh webhook round for a lost delivery settles nothing again', async () => {
    const accountId = await account();
    const ack = await submitTo(accountId, {}, 'https://example.com/hook');
    await run.execute({ taskId: ack.id });
    // No dispatcher ever claimed the delivery (it stays due, decision 0141).
    const before = await money(accountId, ack.id);
    expect(before).toEqual({ reservation: 'captured', charged: PRICE, reserved: 0 });
    const report = await new ReplayWebhooksUseCase(ds, recoveryQueues).execute({
      taskId: ack.id,
      minAgeMs: 0,
      dryRun: false,
    });
    expect(report).toMatchObject({ replayed: 1, task_ids: [ack.id] });
    expect(await until(() => webhooksQueue.getJob(`webhook-${ack.id}-replay-1`))).toBeTruthy();
    // The replay's job makes the attempts now: the dispatchers no longer claim it.
    expect(
      await ds.query(`SELECT due_at FROM webhooks.deliveries WHERE task_id = $1`, [ack.id]),
    ).toEqual([{ due_at: null }]);
    expect(await money(accountId, ack.id)).toEqual(before);
  });

  it('a Replicate webhook: its body is the prediction, and a filter that asks nothing of the end opens no delivery (decision 0137)', async () => {
    const accountId = await account();
    const format = (events: WebhookFormat['events']): WebhookFormat => ({
      kind: 'replicate',
      base_url: 'https://api.example.com/replicate/v1',
      events,
    });
    const asked = await submitTo(accountId, {}, 'https://example.com/hook', format(['completed']));
    const unasked = await submitTo(accountId, {}, 'https://example.com/hook', format(['start']));
    await run.execute({ taskId: asked.id });
    await run.execute({ taskId: unasked.id });
    const deliveries: { task_id: string; body: string }[] = await ds.query(
      `SELECT task_id, body FROM webhooks.deliveries
        WHERE task_id = ANY($1::uuid[]) AND event = 'completed'`,
      [[asked.id, unasked.id]],
    );
    expect(deliveries.map((d) => d.task_id)).toEqual([asked.id]);
    expect(JSON.parse(deliveries[0].body)).toMatchObject({
      id: asked.id,
      status: 'succeeded',
      version: 'local~simulator~test',
      urls: { get: `https://api.example.com/replicate/v1/predictions/${asked.id}` },
    });
    // Each charged once, as any task; the replay has nothing to send for the unasked one.
    expect(await money(accountId, unasked.id)).toEqual({
      reservation: 'captured',
      charged: 2 * PRICE,
      reserved: 0,
    });
    const report = await new ReplayWebhooksUseCase(ds, recoveryQueues).execute({
      taskId: unasked.id,
      minAgeMs: 0,
      dryRun: false,
    });
    expect(report).toMatchObject({ replayed: 0, task_ids: [] });
  });

  it('a Replicate start webhook: opened once per task when a run claims it, never again when the claim is repeated (decision 0137)', async () => {
    const accountId = await account();
    const format = (events: WebhookFormat['events']): WebhookFormat => ({
      kind: 'replicate',
      base_url: 'https://api.example.com/replicate/v1',
      events,
    });
    const hook = 'https://example.com/hook';
    const starts = moduleRef.get(StartWebhook);
    // Tasks the fair runner of this module does not pick up (their run job names no account,
    // so the relay sends it to a run queue no worker here reads): this test's claims are the only ones.
    const quietTask = async (webhookUrl: string | null, webhookFormat: WebhookFormat | null) => {
      const id = randomUUID();
      const created = await submitStatement(
        ds.manager,
        {
          accountId,
          taskId: id,
          amountUnits: PRICE,
          model: 'm/x',
          category: 'test',
          apiKeyId: null,
        },
        {
          id,
          accountId,
          model: 'local/simulator/test',
          channel: 'official',
          category: 'test',
          input: { prompt: 'x' },
          webhookUrl,
          webhookFormat,
          outputPrefix: null,
          priceUnits: PRICE,
          timeLimitMs: 10_000,
        },
        { jobName: 'run-task', jobId: `task-${id}`, payload: { v: 1, taskId: id } },
      );
      expect(created).toBeDefined();
      return { id };
    };
    const deliveriesOf = async (taskId: string) =>
      (
        (await ds.query(
          `SELECT event, body, status FROM webhooks.deliveries WHERE task_id = $1 ORDER BY event`,
          [taskId],
        )) as { event: string; body: string; status: string }[]
      ).map((d) => ({ ...d, body: JSON.parse(d.body) as Record<string, unknown> }));

    // A run that opened the start and died: the repeated run (attempt 2) opens no second one.
    const died = await quietTask(hook, format(['start', 'completed']));
    const first = await tasks.claimForRun(died.id, allowedSources('processing'));
    expect(first?.attempt).toBe(1);
    expect(await starts.open(first!)).toBe(true);
    await run.execute({ taskId: died.id });
    const again = await tasks.findOwnedTask(accountId, died.id);
    expect(again).toMatchObject({ status: 'completed', attempt: 2 });
    expect(await starts.open(again!)).toBe(false);
    const both = await deliveriesOf(died.id);
    expect(both.map((d) => d.event)).toEqual(['completed', 'start']);
    const [completed, start] = both;
    // The prediction as the first claim saw it, signed by the task as its end is.
    expect(start.body).toMatchObject({
      id: died.id,
      status: 'processing',
      output: null,
      completed_at: null,
      started_at: first!.startedAt!.toISOString(),
    });
    expect(completed.body).toMatchObject({ id: died.id, status: 'succeeded' });
    expect(await until(() => webhooksQueue.getJob(startWebhookJobId(died.id)))).toMatchObject({
      data: { v: 2, taskId: died.id, event: 'start', accountId },
    });
    // The end is claimed from the table (decision 0141); the start has its job.
    const due: { event: string; due: boolean }[] = await ds.query(
      `SELECT event, due_at IS NOT NULL AS due FROM webhooks.deliveries WHERE task_id = $1
        ORDER BY event`,
      [died.id],
    );
    expect(due).toEqual([
      { event: 'completed', due: true },
      { event: 'start', due: false },
    ]);
    expect(await webhooksQueue.getJob(`webhook-${died.id}`)).toBeUndefined();

    // A run that died between its claim and the start: the repeated run sends it, not lost.
    const lost = await quietTask(hook, format(['start']));
    expect((await tasks.claimForRun(lost.id, allowedSources('processing')))?.attempt).toBe(1);
    await run.execute({ taskId: lost.id });
    expect((await deliveriesOf(lost.id)).map((d) => [d.event, d.body.status])).toEqual([
      ['start', 'processing'],
    ]);

    // Without a start in the filter, with genhub's own payload, or without a webhook: no start.
    const endOnly = await quietTask(hook, format(['completed']));
    const own = await quietTask(hook, null);
    const none = await quietTask(null, null);
    for (const { id } of [endOnly, own, none]) await run.execute({ taskId: id });
    expect((await deliveriesOf(endOnly.id)).map((d) => d.event)).toEqual(['completed']);
    expect((await deliveriesOf(own.id)).map((d) => d.event)).toEqual(['completed']);
    expect(await deliveriesOf(none.id)).toEqual([]);
    // What is keyed by task alone (the delivery log) reads the end's delivery; each task charged once.
    const log = await moduleRef
      .get(WebhookDeliveryRepository, { strict: false })
      .findOwnedDeliveryLog(accountId, died.id);
    expect(JSON.parse(log?.body ?? '{}')).toMatchObject({ status: 'succeeded' });
    expect(await money(accountId, none.id)).toEqual({
      reservation: 'captured',
      charged: 5 * PRICE,
      reserved: 0,
    });
  });

  it('a delete for open tasks only (a Replicate cancel) leaves a finished task as it is, outputs and all', async () => {
    const accountId = await account();
    const ack = await submitTo(accountId);
    await run.execute({ taskId: ack.id });
    const done = await tasks.findOwnedTask(accountId, ack.id);
    expect(done?.status).toBe('completed');
    await expect(del.execute({ accountId, taskId: ack.id, onlyOpen: true })).rejects.toMatchObject({
      code: 'conflict',
      message: 'The task already ended',
    });
    expect((await tasks.findOwnedTask(accountId, ack.id))?.status).toBe('completed');
    for (const key of done?.outputKeys ?? []) expect(await storage.stat(key)).toBeDefined();
    expect(done?.outputKeys?.length).toBeGreaterThan(0);
  });

  it('a foreign account cannot delete: 404, nothing settled', async () => {
    const accountId = await account();
    const ack = await submitTo(accountId);
    await expect(del.execute({ accountId: randomUUID(), taskId: ack.id })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await money(accountId, ack.id)).toMatchObject({ reservation: 'open' });
  });
});
