import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import { Test, TestingModule } from '@nestjs/testing';
import { Queue } from 'bullmq';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { AccountRepository } from '@genhub/accounts-data-access';
import type { WebhookPayload } from '@genhub/contracts';
import { MetricsService } from '@genhub/observability';
import { runStatement } from '@genhub/database';
import {
  DeliverWebhookJob,
  JOB_OPTIONS,
  JobName,
  jobIdFor,
  PubSubChannel,
  PubSubService,
  QueueName,
  startWebhookJobId,
} from '@genhub/queue';
import {
  closedPort,
  createTestCertificateAuthority,
  deleteQueuePrefix,
  sleep,
  type TestCertificateAuthority,
  until,
  WebhookReceiver,
} from '@genhub/testing';
import {
  DeliveryWithAttempts,
  WebhookDeliveryRepository,
  webhooksStatements,
  withDeliveryOpened,
} from '@genhub/webhooks-data-access';
import { WorkerModule } from '../worker.module';
import { DataSource } from 'typeorm';

jest.setTimeout(60_000);

const PAYLOAD_KEYS = ['code', 'created_at', 'error', 'id', 'input', 'model', 'outputs', 'status'];
let instance = 0;

/** A real dispatcher (the app's module, BullMQ worker, PostgreSQL) on its own queue prefix. */
class Dispatcher {
  private constructor(
    readonly moduleRef: TestingModule,
    readonly prefix: string,
  ) {}

  static async start(env: Record<string, string>): Promise<Dispatcher> {
    const prefix = `${process.env.QUEUE_PREFIX}-d${++instance}`;
    const moduleRef = await Test.createTestingModule({
      imports: [
        WorkerModule.forRoot({
          DATABASE_URL: process.env.DATABASE_URL,
          REDIS_URL: process.env.REDIS_URL,
          QUEUE_PREFIX: prefix,
          LOG_LEVEL: 'silent',
          ALLOW_PRIVATE_NETWORK_URLS: 'true',
          ...env,
        }),
      ],
    }).compile();
    await moduleRef.init();
    return new Dispatcher(moduleRef, prefix);
  }

  get queue(): Queue {
    return this.moduleRef.get(getQueueToken(QueueName.Webhooks));
  }

  get deliveries(): WebhookDeliveryRepository {
    return this.moduleRef.get(WebhookDeliveryRepository);
  }

  get accounts(): AccountRepository {
    return this.moduleRef.get(AccountRepository);
  }

  get dataSource(): DataSource {
    return this.moduleRef.get(DataSource);
  }

  /**
   * What a run's terminal statement and the task-worker do when a task with a
   * webhook turns terminal (decision 0141): the delivery opened with its body,
   * due at once, and the dispatchers woken.
   */
  async deliver(d: { taskId: string; accountId: string; url: string; payload: WebhookPayload }) {
    await this.open(d, 0);
    await this.moduleRef.get(PubSubService).publish(PubSubChannel.WebhooksDue, '');
  }

  /** A delivery driven by queue jobs (a replay's, say): opened without a due time, then its job of ids. */
  async deliverByJob(d: {
    taskId: string;
    accountId: string;
    url: string;
    payload: WebhookPayload;
  }) {
    await this.open(d, null);
    await this.enqueue({ v: 2, taskId: d.taskId, accountId: d.accountId });
  }

  async open(
    d: { taskId: string; accountId: string; url: string; payload: WebhookPayload },
    dueInMs: number | null,
  ) {
    const body = JSON.stringify(d.payload);
    await runStatement(
      this.dataSource.manager,
      withDeliveryOpened(
        webhooksStatements,
        { ...d, event: 'completed', body, dueInMs },
        sql<boolean>`true`,
      )
        .selectFrom('delivery_opened')
        .select('task_id'),
    );
  }

  /** What a run's claim writes for a Replicate task that asked for `start`: its own delivery and job. */
  async deliverStart(d: { taskId: string; accountId: string; url: string; body: string }) {
    await runStatement(
      this.moduleRef.get(DataSource).manager,
      withDeliveryOpened(webhooksStatements, { ...d, event: 'start' }, sql<boolean>`true`)
        .selectFrom('delivery_opened')
        .select('task_id'),
    );
    const job: DeliverWebhookJob = {
      v: 2,
      taskId: d.taskId,
      event: 'start',
      accountId: d.accountId,
    };
    await this.queue.add(JobName.DeliverWebhook, job, {
      ...JOB_OPTIONS[JobName.DeliverWebhook],
      jobId: startWebhookJobId(d.taskId),
    });
  }

  async enqueue(job: DeliverWebhookJob): Promise<void> {
    await this.queue.add(JobName.DeliverWebhook, job, {
      ...JOB_OPTIONS[JobName.DeliverWebhook],
      jobId: jobIdFor(JobName.DeliverWebhook, job.taskId),
    });
  }

  async settled(
    accountId: string,
    taskId: string,
    timeoutMs = 20_000,
  ): Promise<DeliveryWithAttempts> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const log = await this.deliveries.findOwnedDeliveryLog(accountId, taskId);
      if (log && log.status !== 'pending') return log;
      if (Date.now() > deadline)
        throw new Error(`delivery ${taskId} still pending: ${JSON.stringify(log)}`);
      await sleep(25);
    }
  }

  async stop(): Promise<void> {
    await this.moduleRef.close();
    await deleteQueuePrefix(process.env.REDIS_URL as string, this.prefix);
  }
}

function completedPayload(taskId: string): WebhookPayload {
  return {
    id: taskId,
    model: 'local/simulator/test',
    status: 'completed',
    code: 0,
    created_at: '2026-01-02T03:04:05.678',
    input: { prompt: 'a red fox, é ✓', num_outputs: 2 },
    outputs: [
      'http://127.0.0.1:3000/cdn/outputs/a/0.png',
      'http://127.0.0.1:3000/cdn/outputs/a/1.png',
    ],
    error: null,
  };
}

function failedPayload(taskId: string): WebhookPayload {
  return {
    id: taskId,
    model: 'local/simulator/test',
    status: 'failed',
    code: 1402,
    created_at: '2026-01-02T03:04:05.678',
    input: { prompt: 'x', image_url: 'http://example.invalid/a.png' },
    outputs: [],
    error: 'Failed to download the input image',
  };
}

describe('webhook dispatcher (real receivers, BullMQ, PostgreSQL)', () => {
  const receivers: WebhookReceiver[] = [];
  const receiver = async (
    b?: ConstructorParameters<typeof WebhookReceiver>[0],
    tls?: ConstructorParameters<typeof WebhookReceiver>[1],
  ) => {
    const r = await WebhookReceiver.start(b, tls);
    receivers.push(r);
    return r;
  };
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
  });

  describe('with the default retry delays (0, 2 s, 4 s)', () => {
    let d: Dispatcher;
    let accountId: string;
    let secret: string;
    beforeAll(async () => {
      d = await Dispatcher.start({});
      const account = await d.accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' });
      accountId = account.id;
      secret = account.webhookSecret;
    });
    afterAll(() => d.stop());

    it.each([
      ['completed', completedPayload],
      ['failed', failedPayload],
    ])(
      'delivers a %s payload with exactly its keys, signed, to a URL with its own query',
      async (_, make) => {
        const r = await receiver();
        const taskId = randomUUID();
        const payload = make(taskId);
        const url = `${r.url}/hooks/genhub?token=a%2Fb%3D%3D&src=x&src=y`;
        await d.deliver({ taskId, accountId, url, payload });

        const log = await d.settled(accountId, taskId);
        expect(log).toMatchObject({ status: 'delivered', attempts: 1, url });
        expect(log.attemptLog).toEqual([
          expect.objectContaining({ attempt: 1, statusCode: 200, error: null }),
        ]);

        expect(r.requests).toHaveLength(1);
        const req = r.requests[0];
        expect(req.method).toBe('POST');
        expect(req.url).toBe('/hooks/genhub?token=a%2Fb%3D%3D&src=x&src=y');
        expect(req.headers['content-type']).toBe('application/json');
        expect(req.headers['user-agent']).toMatch(/^genhub-webhooks\//);
        expect(req.headers['webhook-id']).toBe(taskId);
        const body = JSON.parse(req.body);
        expect(Object.keys(body).sort()).toEqual(PAYLOAD_KEYS);
        expect(body).toEqual(payload);
        // Any Standard Webhooks library verifies it with the account's webhook_secret.
        expect(new Webhook(secret).verify(req.body, req.headers as Record<string, string>)).toEqual(
          payload,
        );
      },
    );

    it('makes exactly 3 attempts against a receiver answering 500, about 0, 2 and 4 s apart, then abandons', async () => {
      const r = await receiver({ kind: 'status', status: 500 });
      const taskId = randomUUID();
      const enqueuedAt = Date.now();
      await d.deliver({ taskId, accountId, url: `${r.url}/h`, payload: completedPayload(taskId) });

      const log = await d.settled(accountId, taskId);
      expect(log).toMatchObject({ status: 'abandoned', attempts: 3, deliveredAt: null });
      expect(log.attemptLog.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
        [1, 500, null],
        [2, 500, null],
        [3, 500, null],
      ]);
      await sleep(500);
      expect(r.requests).toHaveLength(3);

      const [t1, t2, t3] = r.requests.map((q) => q.at);
      // Lower bounds are the schedule; upper bounds leave room for a loaded
      // machine while still telling 2 s from 4 s.
      expect(t1 - enqueuedAt).toBeLessThan(2000);
      expect(t2 - t1).toBeGreaterThanOrEqual(1950);
      expect(t2 - t1).toBeLessThan(3500);
      expect(t3 - t2).toBeGreaterThanOrEqual(3950);
      expect(t3 - t2).toBeLessThan(5500);

      // Same id and identical bytes on every attempt, each signature valid.
      expect(new Set(r.requests.map((q) => q.headers['webhook-id']))).toEqual(new Set([taskId]));
      expect(new Set(r.requests.map((q) => q.body)).size).toBe(1);
      for (const q of r.requests) {
        expect(() =>
          new Webhook(secret).verify(q.body, q.headers as Record<string, string>),
        ).not.toThrow();
      }
    });

    it('ignores a re-sent first job once the delivery is settled', async () => {
      const r = await receiver();
      const taskId = randomUUID();
      await d.deliver({ taskId, accountId, url: r.url, payload: completedPayload(taskId) });
      await d.settled(accountId, taskId);
      await d.queue.add(
        JobName.DeliverWebhook,
        { v: 2, taskId, accountId },
        { jobId: `resent-${taskId}` },
      );
      await sleep(500);
      expect(r.requests).toHaveLength(1);
      expect((await d.deliveries.findOwnedDeliveryLog(accountId, taskId))?.attempts).toBe(1);
    });
  });

  describe('with short delays and a small WEBHOOK_TIMEOUT_MS', () => {
    let d: Dispatcher;
    let accountId: string;
    beforeAll(async () => {
      d = await Dispatcher.start({
        WEBHOOK_RETRY_DELAYS_MS: '0,100,100',
        WEBHOOK_TIMEOUT_MS: '400',
      });
      accountId = (await d.accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' })).id;
    });
    afterAll(() => d.stop());

    it('makes exactly 3 attempts against a closed port', async () => {
      const port = await closedPort();
      const taskId = randomUUID();
      await d.deliver({
        taskId,
        accountId,
        url: `http://127.0.0.1:${port}/h`,
        payload: completedPayload(taskId),
      });
      const log = await d.settled(accountId, taskId);
      await sleep(400);
      const after = await d.deliveries.findOwnedDeliveryLog(accountId, taskId);
      expect(after).toMatchObject({ status: 'abandoned', attempts: 3 });
      expect(after?.attemptLog.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
        [1, null, 'connection refused'],
        [2, null, 'connection refused'],
        [3, null, 'connection refused'],
      ]);
      expect(log.attemptLog).toHaveLength(3);
    });

    it('times out a hanging receiver, records the time-out and its duration', async () => {
      const r = await receiver({ kind: 'hang' });
      const taskId = randomUUID();
      await d.deliver({ taskId, accountId, url: r.url, payload: failedPayload(taskId) });
      const log = await d.settled(accountId, taskId);
      expect(log.status).toBe('abandoned');
      expect(log.attemptLog).toHaveLength(3);
      for (const a of log.attemptLog) {
        expect(a).toMatchObject({ statusCode: null, error: 'timed out after 400 ms' });
        expect(a.durationMs).toBeGreaterThanOrEqual(390);
        expect(a.durationMs).toBeLessThan(1500);
      }
      expect(r.requests).toHaveLength(3);
    });

    it('does not follow a redirect (a 3xx is a failed attempt)', async () => {
      const target = await receiver();
      const r = await receiver({ kind: 'status', status: 307, headers: { location: target.url } });
      const taskId = randomUUID();
      await d.deliver({ taskId, accountId, url: r.url, payload: completedPayload(taskId) });
      const log = await d.settled(accountId, taskId);
      expect(log.status).toBe('abandoned');
      expect(log.attemptLog.map((a) => a.statusCode)).toEqual([307, 307, 307]);
      expect(target.requests).toHaveLength(0);
    });

    it('delivers the body of its delivery row, the same bytes on every attempt of a job', async () => {
      const r = await receiver({ kind: 'status', status: 500 });
      const taskId = randomUUID();
      const body = JSON.stringify(completedPayload(taskId));
      // The delivery, with its body, driven by jobs (as a replay's is).
      await d.deliverByJob({ taskId, accountId, url: r.url, payload: completedPayload(taskId) });
      await until(() => r.requests.length >= 2, 5000);
      r.behaviour = { kind: 'status', status: 204 };
      const log = await d.settled(accountId, taskId);
      expect(log.status).toBe('delivered');
      expect(r.requests.map((q) => q.body)).toEqual(Array(r.requests.length).fill(body));
      // Retries carry ids too: the bytes come from the row.
      const retry = await d.queue.getJob(`webhook-${taskId}-2`);
      expect(retry?.data).toEqual({ v: 2, taskId, accountId, attempt: 2 });
    });

    it('a task’s start and end deliveries: each its own attempts, retries and webhook-id', async () => {
      const r = await receiver({ kind: 'status', status: 500 });
      const taskId = randomUUID();
      const startBody = JSON.stringify({ id: taskId, status: 'processing' });
      const endBody = JSON.stringify(completedPayload(taskId));
      await d.deliverStart({ taskId, accountId, url: r.url, body: startBody });
      await d.deliver({ taskId, accountId, url: r.url, payload: completedPayload(taskId) });
      const bodies = () => r.requests.map((q) => q.body);
      await until(() => bodies().includes(startBody) && bodies().includes(endBody), 5000);
      r.behaviour = { kind: 'status', status: 204 };
      const end = await d.settled(accountId, taskId);
      const start = await until(async () => {
        const s = await d.deliveries.findDelivery(taskId, accountId, 'start');
        return s?.status === 'delivered' ? s : undefined;
      }, 5000);
      expect(end.status).toBe('delivered');
      // Attempt numbers of their own: the first of each failed, each was retried as attempt 2.
      expect(end.attemptLog[0]).toMatchObject({ attempt: 1, statusCode: 500 });
      expect(start).toMatchObject({ body: startBody, attempts: expect.any(Number) });
      expect(start.attempts).toBeGreaterThanOrEqual(2);
      expect((await d.queue.getJob(`webhook-start-${taskId}-2`))?.data).toEqual({
        v: 2,
        taskId,
        event: 'start',
        accountId,
        attempt: 2,
      });
      // The end's retry came from its row (decision 0141), not from a job.
      expect(await d.queue.getJob(`webhook-${taskId}-2`)).toBeUndefined();
      for (const q of r.requests) {
        const id = (q.headers as Record<string, string>)['webhook-id'];
        expect(id).toBe(q.body === startBody ? `start-${taskId}` : taskId);
      }
      // The delivery log keyed by task alone is the end's: the start's attempts are not in it.
      expect(end.body).toBe(endBody);
      expect(end.attemptLog.length).toBe(r.requests.filter((q) => q.body === endBody).length);
    });

    it('succeeds on a later attempt when the receiver recovers', async () => {
      const r = await receiver({ kind: 'status', status: 503 });
      const taskId = randomUUID();
      await d.deliver({ taskId, accountId, url: r.url, payload: completedPayload(taskId) });
      await until(() => r.requests.length >= 1, 5000);
      r.behaviour = { kind: 'status', status: 202 };
      const log = await d.settled(accountId, taskId);
      expect(log.status).toBe('delivered');
      expect(log.attemptLog.map((a) => a.statusCode)).toEqual([503, 202]);
    });
  });

  describe('with ALLOW_PRIVATE_NETWORK_URLS=false', () => {
    let d: Dispatcher;
    let accountId: string;
    beforeAll(async () => {
      d = await Dispatcher.start({
        WEBHOOK_RETRY_DELAYS_MS: '0,50,50',
        ALLOW_PRIVATE_NETWORK_URLS: 'false',
      });
      accountId = (await d.accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' })).id;
    });
    afterAll(() => d.stop());

    it.each([
      ['a hostname resolving to 127.0.0.1', (p: number) => `http://localhost:${p}/h`],
      ['a literal loopback address', (p: number) => `http://127.0.0.1:${p}/h`],
    ])('refuses %s: no request is sent, the attempts fail', async (_, urlFor) => {
      const r = await receiver();
      const taskId = randomUUID();
      await d.deliver({
        taskId,
        accountId,
        url: urlFor(r.port),
        payload: completedPayload(taskId),
      });
      const log = await d.settled(accountId, taskId);
      expect(log.status).toBe('abandoned');
      expect(log.attemptLog).toHaveLength(3);
      for (const a of log.attemptLog) {
        expect(a.statusCode).toBeNull();
        expect(a.error).toMatch(/private network address/);
      }
      expect(r.requests).toHaveLength(0);
    });
  });

  describe('an HTTPS receiver whose certificate a private CA signed (OUTBOUND_TLS_CA)', () => {
    let ca: TestCertificateAuthority;
    let https: WebhookReceiver;
    let plain: Dispatcher | undefined;
    let trusting: Dispatcher | undefined;
    beforeAll(async () => {
      ca = createTestCertificateAuthority();
      https = await receiver(undefined, ca.issue(['localhost', '127.0.0.1']));
    });
    // One dispatcher at a time: any dispatcher claims any due delivery from the table
    // (decision 0141), so the other one's poll could take this test's. One attempt each:
    // the certificate error is recorded on it.
    afterEach(async () => {
      await plain?.stop();
      await trusting?.stop();
      plain = trusting = undefined;
    });
    afterAll(() => ca?.remove());

    it('refuses it without the setting: nothing is sent, the attempt records the certificate error', async () => {
      plain = await Dispatcher.start({ WEBHOOK_RETRY_DELAYS_MS: '0' });
      const accountId = (
        await plain.accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' })
      ).id;
      const taskId = randomUUID();
      const url = `${https.url}/h`;
      await plain.deliver({ taskId, accountId, url, payload: completedPayload(taskId) });
      const log = await plain.settled(accountId, taskId);
      expect(log).toMatchObject({ status: 'abandoned', attempts: 1 });
      expect(log.attemptLog).toEqual([
        expect.objectContaining({
          statusCode: null,
          error: expect.stringMatching(/^TLS: certificate not trusted \([A-Z_]+: [^)]+\)$/),
        }),
      ]);
      expect(https.requests.filter((r) => r.headers['webhook-id'] === taskId)).toHaveLength(0);
    });

    it('delivers to it with the CA in OUTBOUND_TLS_CA', async () => {
      trusting = await Dispatcher.start({ WEBHOOK_RETRY_DELAYS_MS: '0', OUTBOUND_TLS_CA: ca.file });
      const accountId = (
        await trusting.accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' })
      ).id;
      const taskId = randomUUID();
      await trusting.deliver({
        taskId,
        accountId,
        url: `${https.url}/h`,
        payload: completedPayload(taskId),
      });
      const log = await trusting.settled(accountId, taskId);
      expect(log).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(https.requests.filter((r) => r.headers['webhook-id'] === taskId)).toHaveLength(1);
    });
  });

  describe('deliveries claimed from the table (decision 0141)', () => {
    const dispatchers: Dispatcher[] = [];
    const start = async (env: Record<string, string> = {}) => {
      const d = await Dispatcher.start(env);
      dispatchers.push(d);
      return d;
    };
    afterEach(async () => {
      await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
    });
    const accountOf = async (d: Dispatcher) =>
      (await d.accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' })).id;

    it('a dispatcher that died mid-attempt: its claim lapses, then another makes the attempt, once', async () => {
      const d = await start();
      const accountId = await accountOf(d);
      const r = await receiver();
      const taskId = randomUUID();
      const payload = completedPayload(taskId);
      // Opened and claimed for 1.5 s in one transaction, as by a dispatcher that then died.
      await d.dataSource.transaction(async (manager) => {
        await runStatement(
          manager,
          withDeliveryOpened(
            webhooksStatements,
            {
              taskId,
              accountId,
              url: r.url,
              event: 'completed',
              body: JSON.stringify(payload),
              dueInMs: 0,
            },
            sql<boolean>`true`,
          )
            .selectFrom('delivery_opened')
            .select('task_id'),
        );
        await manager.query(
          `UPDATE webhooks.deliveries SET claimed_until = now() + interval '1500 ms'
            WHERE task_id = $1`,
          [taskId],
        );
      });
      const claimedAt = Date.now();
      await d.moduleRef.get(PubSubService).publish(PubSubChannel.WebhooksDue, '');
      await sleep(1000);
      expect(r.requests).toHaveLength(0);
      // Counted as claimed for the autoscaler meanwhile.
      const gauge = await d.moduleRef
        .get(MetricsService)
        .registry.getSingleMetricAsString('genhub_webhook_deliveries_due');
      const claimed = /genhub_webhook_deliveries_due\{state="claimed"[^}]*\} (\d+)/.exec(gauge);
      expect(Number(claimed?.[1])).toBeGreaterThanOrEqual(1);
      const log = await d.settled(accountId, taskId, 10_000);
      expect(log).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(r.requests).toHaveLength(1);
      expect(r.requests[0].at - claimedAt).toBeGreaterThanOrEqual(1400);
      expect(
        await d.dataSource.query(
          `SELECT due_at, claimed_until FROM webhooks.deliveries WHERE task_id = $1`,
          [taskId],
        ),
      ).toEqual([{ due_at: null, claimed_until: null }]);
    });

    it('two dispatchers share a burst of 300 due deliveries: each sent once', async () => {
      const [a, b] = await Promise.all([start(), start()]);
      const accountId = await accountOf(a);
      const r = await receiver();
      const ids = Array.from({ length: 300 }, () => randomUUID());
      // Opened together, then both woken (each listens on its own prefix).
      await Promise.all(
        ids.map((taskId) =>
          a.open({ taskId, accountId, url: r.url, payload: completedPayload(taskId) }, 0),
        ),
      );
      await Promise.all(
        [a, b].map((d) => d.moduleRef.get(PubSubService).publish(PubSubChannel.WebhooksDue, '')),
      );
      await until(() => r.requests.length >= ids.length, 20_000);
      await sleep(500);
      const sent = r.requests.map((q) => q.headers['webhook-id']);
      expect(sent.sort()).toEqual([...ids].sort());
      const rows: { attempts: number; n: string }[] = await a.dataSource.query(
        `SELECT attempts, count(*) AS n FROM webhooks.deliveries
          WHERE task_id = ANY($1::uuid[]) AND status = 'delivered' GROUP BY attempts`,
        [ids],
      );
      expect(rows).toEqual([{ attempts: 1, n: 300 }]);
    });

    it('holds the first attempt back for the first of WEBHOOK_RETRY_DELAYS_MS', async () => {
      const d = await start({ WEBHOOK_RETRY_DELAYS_MS: '600,100' });
      const accountId = await accountOf(d);
      const r = await receiver();
      const taskId = randomUUID();
      const opened = Date.now();
      await d.deliver({ taskId, accountId, url: r.url, payload: completedPayload(taskId) });
      const log = await d.settled(accountId, taskId, 10_000);
      expect(log).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(r.requests[0].at - opened).toBeGreaterThanOrEqual(590);
    });
  });

  describe('throughput: slow receivers do not delay the others', () => {
    // The bound is behaviour, not speed: a dispatcher that waited on a hanging
    // receiver would hold the healthy ones for its 3 s time-out. Below that,
    // the margin absorbs a loaded CI machine.
    const NOT_HELD_MS = 2500;

    it('delivers to 90 healthy receivers well before a hanging one times out', async () => {
      const d = await Dispatcher.start({ WEBHOOK_TIMEOUT_MS: '3000' });
      try {
        const accountId = (
          await d.accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' })
        ).id;
        const healthy = await Promise.all(Array.from({ length: 90 }, () => receiver()));
        const hanging = await Promise.all(
          Array.from({ length: 10 }, () => receiver({ kind: 'hang' })),
        );
        const targets = [...hanging.slice(0, 5), ...healthy, ...hanging.slice(5)];
        const t0 = Date.now();
        await Promise.all(
          targets.map((r) => {
            const taskId = randomUUID();
            return d.deliver({ taskId, accountId, url: r.url, payload: completedPayload(taskId) });
          }),
        );
        await until(() => healthy.every((r) => r.requests.length === 1), 5000);
        const last = Math.max(...healthy.map((r) => r.requests[0].at));
        expect(last - t0).toBeLessThan(NOT_HELD_MS);
        // The hanging receivers were called too (once: their time-out is 3 s away), just not waited for.
        await until(() => hanging.every((r) => r.requests.length >= 1), 2000);
        expect(hanging.map((r) => r.requests.length)).toEqual(Array(10).fill(1));
      } finally {
        await d.stop();
      }
    });

    it.each([
      ['claimed from the table', 'deliver'],
      ['queue jobs', 'deliverByJob'],
    ] as const)('does not let a saturated host hold the slots (%s: put back)', async (_, how) => {
      const d = await Dispatcher.start({
        WEBHOOK_TIMEOUT_MS: '3000',
        WEBHOOK_CONCURRENCY: '4',
        WEBHOOK_PER_HOST_CONCURRENCY: '2',
      });
      try {
        const accountId = (
          await d.accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' })
        ).id;
        const slow = await receiver({ kind: 'hang' });
        const healthy = await Promise.all(Array.from({ length: 20 }, () => receiver()));
        const t0 = Date.now();
        // The slow host's deliveries are queued first, ahead of every healthy one.
        for (let i = 0; i < 10; i++) {
          const taskId = randomUUID();
          await d[how]({
            taskId,
            accountId,
            url: `${slow.url}/${i}`,
            payload: completedPayload(taskId),
          });
        }
        for (const r of healthy) {
          const taskId = randomUUID();
          await d[how]({ taskId, accountId, url: r.url, payload: completedPayload(taskId) });
        }
        await until(() => healthy.every((r) => r.requests.length === 1), 5000);
        const last = Math.max(...healthy.map((r) => r.requests[0].at));
        expect(last - t0).toBeLessThan(NOT_HELD_MS);
        // Never more than the per-host limit in flight at the slow host.
        expect(slow.requests.length).toBe(2);
      } finally {
        await d.stop();
      }
    });
  });
});
