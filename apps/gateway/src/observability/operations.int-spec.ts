import { randomUUID } from 'node:crypto';
import { ChildProcess, spawn } from 'node:child_process';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { METRICS, MetricSpec, ServiceName } from '@genhub/observability';
import { JobName, QueueName, redisConnection } from '@genhub/queue';
import {
  buildAppForTest,
  BuiltApp,
  closedPort,
  createTestDatabase,
  deleteQueuePrefix,
  dropTestDatabase,
  sleep,
  testQueuePrefix,
  WebhookReceiver,
} from '@genhub/testing';

/**
 * The four built apps as processes (as deployed), a few simulator tasks
 * through them, then what an operator relies on: every catalogued series on
 * each app's /metrics with a value, the task and request ids on the workers'
 * log lines, and the gateway's OpenTelemetry spans (http and pg) arriving
 * at an OTLP/HTTP receiver.
 */
const root = join(__dirname, '../../../..');
const APPS: ServiceName[] = ['gateway', 'task-worker', 'webhook-dispatcher', 'billing'];
const ADMIN_TOKEN = 'operations-test-admin-token';
const REQUEST_ID = 'ops-test-request-1';
/** Series that may rightly read 0 after a healthy run (they must still be exported). */
const MAY_BE_ZERO = new Set<string>([
  METRICS.webhookDeferrals.name,
  METRICS.ledgerAuditFailingAccounts.name,
  METRICS.openReservations.name,
  // Nothing is stuck in this run: the sweeper's counter is there, at 0.
  METRICS.tasksSwept.name,
  // No client follows a task here: the gauge is there, at 0 (task-events.int-spec moves it).
  METRICS.taskEventStreams.name,
  // Every task of the run has ended: the queue by account is empty (queue-accounts.int-spec fills it).
  METRICS.accountTasks.name,
  METRICS.accountsWaiting.name,
  METRICS.tasksWaiting.name,
  // Every delivery of the run was made: none is due (the dispatcher int-spec sees it count).
  METRICS.webhookDeliveriesDue.name,
]);

interface Sample {
  name: string;
  labels: string;
  value: number;
}

function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
      return { name: match?.[1] ?? '', labels: match?.[2] ?? '', value: Number(match?.[3]) };
    });
}

/** An OTLP/HTTP (JSON) trace receiver on 127.0.0.1. */
async function otlpReceiver(): Promise<{ server: Server; url: string; exports: unknown[] }> {
  const exports: unknown[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') exports.push(JSON.parse(Buffer.concat(chunks).toString()));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports,
  };
}

interface OtlpSpan {
  traceId: string;
  kind: number;
  name: string;
}
interface OtlpExport {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[];
  }[];
}

describe('operations: metrics, log correlation and tracing across the four apps', () => {
  const dir = mkdtempSync(join(tmpdir(), 'genhub-ops-'));
  const builds = new Map<ServiceName, BuiltApp>();
  const children = new Map<ServiceName, ChildProcess>();
  const logs = new Map<ServiceName, string[]>();
  const ports = new Map<ServiceName, number>();
  let receiver: WebhookReceiver;
  let otlp: Awaited<ReturnType<typeof otlpReceiver>>;
  let queue: Queue;
  // A database and queue prefix of its own: other suites of this project run tasks in
  // parallel, and these apps' relay and workers must not count (or take) theirs.
  const prefix = testQueuePrefix('ops');
  let db: { url: string; name: string };
  const gateway = () => `http://127.0.0.1:${ports.get('gateway')}`;

  beforeAll(async () => {
    for (const app of APPS) builds.set(app, buildAppForTest(app, 'operations'));
    db = await createTestDatabase('ops');
    receiver = await WebhookReceiver.start();
    otlp = await otlpReceiver();
    for (const app of APPS) ports.set(app, await closedPort());
    await Promise.all(APPS.map((app) => start(app)));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(
      [...children.values()].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await queue?.close();
    await deleteQueuePrefix(process.env.REDIS_URL as string, prefix);
    if (db) await dropTestDatabase(db.name);
    await receiver?.close();
    otlp?.server.close();
    rmSync(dir, { recursive: true, force: true });
    for (const build of builds.values()) build.remove();
  });

  /** One attempt: spawns the app on its port; true once its /health answers and it is still alive. */
  async function startOnce(app: ServiceName): Promise<boolean> {
    const child = spawn(process.execPath, [(builds.get(app) as BuiltApp).entry()], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        QUEUE_PREFIX: prefix,
        PORT: String(ports.get(app)),
        HOST: '127.0.0.1',
        ADMIN_TOKEN,
        API_KEY_PEPPER: 'operations-test-pepper-0123',
        ALLOW_PRIVATE_NETWORK_URLS: 'true',
        STORAGE_DIR: join(dir, 'objects'),
        // Workers log each job at debug level: the lines the correlation check reads.
        LOG_LEVEL: app === 'gateway' ? 'info' : 'debug',
        SHUTDOWN_GRACE_MS: '2000',
        LEDGER_AUDIT_INTERVAL_MS: '1000',
        ...(app === 'gateway'
          ? {
              OTEL_ENABLED: 'true',
              OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
              OTEL_BSP_SCHEDULE_DELAY: '200',
            }
          : {}),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.set(app, child);
    const lines: string[] = [];
    logs.set(app, lines);
    let rest = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      const parts = (rest + chunk.toString()).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts);
    });
    for (let i = 0; i < 300; i++) {
      // Exited (its port taken meanwhile by a suite running beside this one): try another.
      if (child.exitCode !== null) return false;
      try {
        if ((await fetch(`http://127.0.0.1:${ports.get(app)}/health`)).ok) {
          // Another process may answer on a port this app failed to take: still alive?
          await sleep(300);
          return child.exitCode === null;
        }
      } catch {
        /* starting */
      }
      await sleep(100);
    }
    throw new Error(`${app} did not start`);
  }

  /**
   * Starts the app on a port that was free a moment ago (closedPort); another
   * suite may take it first, then the app is started again on a new one.
   */
  async function start(app: ServiceName): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt > 0) ports.set(app, await closedPort());
      if (await startOnce(app)) return;
    }
    throw new Error(`${app} did not start on any of three ports`);
  }

  async function json(path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
    const response = await fetch(`${gateway()}${path}`, init);
    return { httpStatus: response.status, ...((await response.json()) as object) };
  }

  async function waitFor(what: string, check: () => Promise<boolean> | boolean, ms = 20_000) {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(100);
    }
  }

  const submitted: { id: string; requestId: string }[] = [];
  /** A task deleted while running: its settlement is the billing app's job (a run's is inline). */
  let deletedTask = '';

  it('runs tasks end to end: completed and failed, with webhooks', async () => {
    const adminHeaders = {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      'content-type': 'application/json',
    };
    const account = await json('/admin/v1/accounts', {
      method: 'POST',
      headers: adminHeaders,
      body: '{"balance":1000}',
    });
    const key = await json(`/admin/v1/accounts/${account.id}/api-keys`, {
      method: 'POST',
      headers: adminHeaders,
      body: '{}',
    });
    const auth = { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' };
    const hook = encodeURIComponent(`${receiver.url}/hook`);
    const bodies = [
      { prompt: 'ok', duration_ms: 50 },
      { prompt: 'fails', duration_ms: 50, fail_code: 5003 },
      { prompt: 'plain' },
    ];
    for (const [i, body] of bodies.entries()) {
      const requestId = `${REQUEST_ID}-${i}`;
      const ack = await json(`/v1/local/simulator/test${i < 2 ? `?webhook=${hook}` : ''}`, {
        method: 'POST',
        headers: { ...auth, 'x-request-id': requestId },
        body: JSON.stringify(body),
      });
      expect(ack.httpStatus).toBe(200);
      submitted.push({ id: ack.id as string, requestId });
    }
    const slow = await json('/v1/local/simulator/test', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ prompt: 'deleted', duration_ms: 60_000 }),
    });
    expect(slow.httpStatus).toBe(200);
    deletedTask = slow.id as string;
    expect(
      (await json(`/api/v3/predictions/${deletedTask}`, { method: 'DELETE', headers: auth }))
        .httpStatus,
    ).toBe(200);
    // An unauthenticated call and a wrong path on each app: the error counters have something to count.
    expect((await fetch(`${gateway()}/v1/balance`)).status).toBe(401);
    for (const app of APPS)
      expect((await fetch(`http://127.0.0.1:${ports.get(app)}/nowhere`)).status).toBe(404);

    const statuses = async () =>
      Promise.all(
        submitted.map(async ({ id }) => {
          const result = await json(`/v1/requests/${id}`, { headers: auth });
          return result.status as string;
        }),
      );
    await waitFor('terminal tasks', async () =>
      (await statuses()).every((s) => s === 'completed' || s === 'failed'),
    );
    expect(await statuses()).toEqual(['completed', 'failed', 'completed']);
    await waitFor('two webhooks', () => receiver.requests.length >= 2);
  }, 60_000);

  it('exports every catalogued series of each app with a value', async () => {
    // A job parked for an hour: queue depth has something to count.
    queue = new Queue(QueueName.Webhooks, {
      connection: redisConnection(process.env.REDIS_URL as string),
      prefix,
    });
    await queue.add(JobName.DeliverWebhook, { v: 0 }, { delay: 3_600_000, jobId: 'ops-parked' });
    // Task ends are claimed from the table (decision 0141): a job of a delivery that does not
    // exist (as a replay's might be) gives the dispatcher's job timings something to time.
    await queue.add(
      JobName.DeliverWebhook,
      { v: 2, taskId: randomUUID(), accountId: randomUUID() },
      { jobId: 'ops-orphan' },
    );

    const scrape = async (app: ServiceName) =>
      parseExposition(await (await fetch(`http://127.0.0.1:${ports.get(app)}/metrics`)).text());
    const specs = Object.values(METRICS) as MetricSpec[];
    const missing = async () => {
      const gaps: string[] = [];
      for (const app of APPS) {
        const samples = await scrape(app);
        for (const spec of specs.filter((s) => s.services.includes(app))) {
          const series = spec.type === 'histogram' ? `${spec.name}_count` : spec.name;
          const found = samples.filter((s) => s.name === series);
          const ok = MAY_BE_ZERO.has(spec.name) ? found.length > 0 : found.some((s) => s.value > 0);
          if (!ok) gaps.push(`${app}: ${series}`);
        }
      }
      return gaps;
    };
    // The workers' counters and the audit move just after the tasks; give them a moment.
    let gaps = await missing();
    for (let i = 0; i < 50 && gaps.length; i++) {
      await sleep(200);
      gaps = await missing();
    }
    expect(gaps).toEqual([]);

    const gatewaySamples = await scrape('gateway');
    const requests = (route: string) =>
      gatewaySamples.filter(
        (s) => s.name === METRICS.httpRequests.name && s.labels.includes(`route="${route}"`),
      );
    expect(requests('submit').some((s) => s.value >= 3)).toBe(true);
    expect(requests('result').length).toBeGreaterThan(0);
    // Route families only: no raw ids or URLs in labels.
    expect(gatewaySamples.some((s) => /[0-9a-f]{8}-[0-9a-f]{4}/.test(s.labels))).toBe(false);
    expect(
      gatewaySamples.some(
        (s) =>
          s.name === METRICS.httpErrors.name &&
          s.labels.includes('route="balance"') &&
          s.labels.includes('class="client"') &&
          s.value >= 1,
      ),
    ).toBe(true);
    expect(
      gatewaySamples.some(
        (s) =>
          s.name === METRICS.queueJobs.name &&
          s.labels.includes('queue="webhooks"') &&
          s.labels.includes('state="delayed"') &&
          s.value >= 1,
      ),
    ).toBe(true);

    const worker = await scrape('task-worker');
    // A run settles its reservation in its terminal statement, counted by the task-worker.
    const settled = (samples: Sample[], o: string) =>
      samples.find(
        (s) => s.name === METRICS.settlements.name && s.labels.includes(`outcome="${o}"`),
      )?.value ?? 0;
    expect(settled(worker, 'captured')).toBe(2);
    expect(settled(worker, 'released')).toBe(1);
    const outcome = (o: string, code: string) =>
      worker.find(
        (s) =>
          s.name === METRICS.taskOutcomes.name &&
          s.labels.includes('model="local/simulator/test"') &&
          s.labels.includes(`outcome="${o}"`) &&
          s.labels.includes(`code="${code}"`),
      )?.value;
    expect(outcome('completed', '0')).toBe(2);
    expect(outcome('failed', '5003')).toBe(1);

    const billing = await scrape('billing');
    const value = (name: string, label = '') =>
      billing.find((s) => s.name === name && s.labels.includes(label))?.value;
    // The billing app settled the deletion only.
    expect(settled(billing, 'captured') + settled(billing, 'released')).toBe(1);
    expect(value(METRICS.ledgerAuditFailingAccounts.name)).toBe(0);
    expect(value(METRICS.openReservations.name)).toBe(0);
    expect(value(METRICS.ledgerAuditRuns.name, 'result="ok"')).toBeGreaterThan(0);
  }, 30_000);

  it('writes the task id and the request id on the worker log lines of that task', async () => {
    const [withWebhook] = submitted;
    const linesOf = (app: ServiceName) =>
      (logs.get(app) ?? [])
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    const gatewayLine = linesOf('gateway').find(
      (l) => l.request_id === withWebhook.requestId && l.msg === 'request completed',
    );
    expect(gatewayLine).toBeDefined();
    for (const app of ['task-worker', 'webhook-dispatcher'] as const) {
      const lines = linesOf(app).filter((l) => l.task_id === withWebhook.id);
      expect(lines.length ? app : `${app}: no line names the task`).toBe(app);
      expect(lines.every((l) => l.request_id === withWebhook.requestId)).toBe(true);
    }
    // The billing app only sees deletions (a run settles inline): its settle line names the task.
    expect(linesOf('billing').some((l) => l.task_id === deletedTask)).toBe(true);
  });

  it('exports the gateway spans over OTLP/HTTP: the request and its PostgreSQL queries', async () => {
    const spans = () =>
      (otlp.exports as OtlpExport[]).flatMap((e) =>
        e.resourceSpans.flatMap((rs) => {
          const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value
            .stringValue;
          return rs.scopeSpans.flatMap((ss) =>
            ss.spans.map((span) => ({ service, scope: ss.scope.name, span })),
          );
        }),
      );
    const has = (scope: string) => spans().filter((s) => s.scope.includes(scope));
    await waitFor(
      'http and pg spans',
      () => has('instrumentation-http').length > 0 && has('instrumentation-pg').length > 0,
      10_000,
    );
    expect(new Set(spans().map((s) => s.service))).toEqual(new Set(['gateway']));
    const httpTraces = new Set(has('instrumentation-http').map((s) => s.span.traceId));
    // A query made while serving a request belongs to that request's trace.
    expect(has('instrumentation-pg').some((s) => httpTraces.has(s.span.traceId))).toBe(true);
  });
});
