import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { Webhook } from 'standardwebhooks';
import { dataSourceOptions } from '@genhub/database';
import { redisConnection } from '@genhub/queue';
import {
  buildAppForTest,
  BuiltApp,
  closedPort,
  createTestDatabase,
  deleteQueuePrefix,
  dropTestDatabase,
  insertTask,
  sleep,
  testQueuePrefix,
  until,
  WebhookReceiver,
} from '@genhub/testing';
import { runAdminCli } from './run-admin-cli.util';

jest.setTimeout(90_000);

const root = path.resolve(__dirname, '../../../../..');
/** How long a recovered task or delivery may take, and how often to look. */
const SETTLED = { ms: 20_000, every: 50 };

/**
 * The recovery commands against the built task-worker and webhook-dispatcher,
 * on a database and queue prefix of their own: the workers' outbox relay must
 * not take other test files' rows, and "Redis lost the jobs" is a prefix that
 * never held them.
 */
describe('recovery commands: tasks:requeue, webhooks:replay, workers:pause (PostgreSQL + Redis)', () => {
  let db: { url: string; name: string };
  let pg: Client;
  let ds: DataSource;
  let env: NodeJS.ProcessEnv;
  let receiver: WebhookReceiver;
  const prefix = testQueuePrefix('recovery');
  const redisUrl = process.env.REDIS_URL as string;
  const dir = mkdtempSync(path.join(tmpdir(), 'genhub-recovery-'));
  const children: ChildProcess[] = [];
  const builds = new Map<string, BuiltApp>();
  let accountId: string;
  let secret: string;

  /** The admin CLI in-process, on this suite's database (or `on` another). */
  async function adminOn(on: NodeJS.ProcessEnv, argv: string[]) {
    let out = '';
    let err = '';
    const code = await runAdminCli(argv, on, {
      out: (text) => (out += text),
      err: (text) => (err += text),
    });
    return { code, err, json: out ? JSON.parse(out) : undefined };
  }
  const admin = (...argv: string[]) => adminOn(env, argv);

  function start(app: string, port: number): void {
    const child = spawn(process.execPath, [(builds.get(app) as BuiltApp).entry()], {
      cwd: root,
      env: {
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        STORAGE_DIR: path.join(dir, 'objects'),
        LOG_LEVEL: 'warn',
        ALLOW_PRIVATE_NETWORK_URLS: 'true',
        WEBHOOK_RETRY_DELAYS_MS: '0,100,100',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(child);
  }

  /** An open task whose run job Redis lost (no outbox rows); `finished` makes it terminal since. */
  async function lostTask(input: {
    webhookUrl?: string;
    finished?: { status: 'completed' | 'failed'; agoMs: number };
  }): Promise<string> {
    const id = randomUUID();
    await insertTask(ds, {
      id,
      accountId,
      model: 'local/simulator/test',
      channel: 'stable',
      category: 'test',
      input: { prompt: 'recover' },
      webhookUrl: input.webhookUrl ?? null,
      outputPrefix: null,
      priceUnits: 1000,
      timeLimitMs: 60_000,
    });
    if (input.finished)
      await pg.query(
        `UPDATE tasks.tasks SET status = $2, code = $3, error = $4, outputs = '[]',
                finished_at = now() - make_interval(secs => $5::float8 / 1000) WHERE id = $1`,
        [
          id,
          input.finished.status,
          input.finished.status === 'completed' ? 0 : 5000,
          input.finished.status === 'completed' ? null : 'failed',
          input.finished.agoMs,
        ],
      );
    return id;
  }

  async function statusOf(id: string): Promise<string> {
    return (await pg.query(`SELECT status FROM tasks.tasks WHERE id = $1`, [id])).rows[0].status;
  }

  async function delivery(id: string) {
    const d = await pg.query(
      `SELECT status, attempts FROM webhooks.deliveries WHERE task_id = $1`,
      [id],
    );
    const attempts = await pg.query(
      `SELECT attempt, status_code FROM webhooks.attempts WHERE task_id = $1 ORDER BY attempt`,
      [id],
    );
    return { ...d.rows[0], log: attempts.rows };
  }

  beforeAll(async () => {
    db = await createTestDatabase('recovery');
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    ds = new DataSource(dataSourceOptions({ url: db.url }));
    await ds.initialize();
    env = {
      ...process.env,
      DATABASE_URL: db.url,
      QUEUE_PREFIX: prefix,
      API_KEY_PEPPER: 'test-pepper-0123456789',
    };
    for (const app of ['task-worker', 'webhook-dispatcher'])
      builds.set(app, buildAppForTest(app, 'recovery'));
    receiver = await WebhookReceiver.start({ kind: 'status', status: 500 });
    const account = await admin('create-account', '--balance', '5');
    accountId = account.json.id;
    secret = account.json.webhook_secret;
    // Free ports of their own: a fixed one may be taken, and an app that cannot listen exits (0101).
    start('task-worker', await closedPort());
    start('webhook-dispatcher', await closedPort());
  }, 120_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await receiver?.close();
    await pg?.end();
    await ds?.destroy();
    await deleteQueuePrefix(redisUrl, prefix);
    await dropTestDatabase(db.name);
    rmSync(dir, { recursive: true, force: true });
    for (const build of builds.values()) build.remove();
  });

  it('tasks:requeue runs open tasks whose jobs Redis lost and settles finished ones', async () => {
    const open = [await lostTask({}), await lostTask({})];
    const unsettled = await lostTask({ finished: { status: 'completed', agoMs: 60_000 } });
    // Deleted while created; its settle job (release) was lost with Redis.
    const deleted = await lostTask({});
    await pg.query(`UPDATE tasks.tasks SET status = 'deleted', deleted_at = now() WHERE id = $1`, [
      deleted,
    ]);
    for (const task of [unsettled, deleted])
      await pg.query(
        `INSERT INTO billing.reservations (task_id, account_id, amount_units, model, category)
         VALUES ($1, $2, 1000, 'local/simulator/test', 'test')`,
        [task, accountId],
      );
    await sleep(500);
    expect(await statusOf(open[0])).toBe('created'); // no job: nothing runs it

    const dry = await admin('tasks:requeue', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.json).toEqual({
      dry_run: true,
      outbox_rows: 0,
      open_tasks: { found: 2, live: 0, requeued: 2 },
      unsettled_tasks: { found: 2, live: 0, requeued: 2 },
    });
    await sleep(500);
    expect(await statusOf(open[1])).toBe('created');

    const run = await admin('tasks:requeue');
    expect(run.json).toMatchObject({
      dry_run: false,
      open_tasks: { found: 2, requeued: 2 },
      unsettled_tasks: { found: 2, live: 0, requeued: 2 },
    });
    await until(async () => (await statusOf(open[0])) === 'completed', SETTLED);
    await until(async () => (await statusOf(open[1])) === 'completed', SETTLED);

    // The settle job waits for the billing app (not running here).
    const billing = new Queue('billing', { connection: redisConnection(redisUrl), prefix });
    try {
      expect(await (await billing.getJob(`settle-${unsettled}`))?.getState()).toBe('waiting');
      expect((await billing.getJob(`settle-${unsettled}`))?.data).toEqual({
        v: 1,
        taskId: unsettled,
        accountId,
        outcome: 'capture',
      });
      expect((await billing.getJob(`settle-${deleted}`))?.data).toMatchObject({
        taskId: deleted,
        outcome: 'release',
      });
    } finally {
      await billing.close();
    }

    // Again: nothing open; the settle job is live, so it is not added twice.
    const again = await admin('tasks:requeue');
    expect(again.json).toMatchObject({
      open_tasks: { found: 0 },
      unsettled_tasks: { found: 2, live: 2, requeued: 0 },
    });
  });

  it('webhooks:replay makes a new round for abandoned and never-sent deliveries, signed with the rotated secret', async () => {
    const hook = `${receiver.url}/hook`;
    // Abandoned: run through the real pipeline against a receiver answering 500.
    const abandoned = await lostTask({ webhookUrl: hook });
    await admin('tasks:requeue');
    await until(async () => (await delivery(abandoned))?.status === 'abandoned', SETTLED);
    // Never sent: finished an hour ago, its delivery job lost with Redis.
    const missing = await lostTask({
      webhookUrl: hook,
      finished: { status: 'failed', agoMs: 3_600_000 },
    });
    // Too recent to be called lost: left alone.
    const recent = await lostTask({
      webhookUrl: hook,
      finished: { status: 'completed', agoMs: 1000 },
    });

    const dry = await admin('webhooks:replay', '--account', accountId, '--dry-run');
    expect(dry.json).toEqual({
      dry_run: true,
      found: { abandoned: 1, stalled: 0, missing: 1 },
      skipped: 0,
      replayed: 0,
      task_ids: expect.arrayContaining([abandoned, missing]),
    });
    expect(dry.json.task_ids).not.toContain(recent);
    expect((await delivery(missing)).status).toBeUndefined();

    const rotated = await admin('webhook-secret:rotate', accountId);
    expect(rotated.json).toEqual({
      id: accountId,
      webhook_secret: expect.stringMatching(/^whsec_/),
    });
    const newSecret = rotated.json.webhook_secret as string;
    expect(newSecret).not.toBe(secret);
    await sleep(300); // the dispatcher hears the rotation on Redis pub/sub

    receiver.behaviour = { kind: 'status', status: 204 };
    const before = receiver.requests.length;
    const replay = await admin(
      'webhooks:replay',
      '--account',
      accountId,
      '--since',
      '2000-01-01T00:00:00Z',
    );
    expect(replay.code).toBe(0);
    expect(replay.json).toMatchObject({ dry_run: false, replayed: 2, skipped: 0 });

    await until(async () => (await delivery(abandoned)).status === 'delivered', SETTLED);
    await until(async () => (await delivery(missing))?.status === 'delivered', SETTLED);
    expect(await delivery(abandoned)).toEqual({
      status: 'delivered',
      attempts: 4,
      log: [
        { attempt: 1, status_code: 500 },
        { attempt: 2, status_code: 500 },
        { attempt: 3, status_code: 500 },
        { attempt: 4, status_code: 204 },
      ],
    });
    expect(await delivery(missing)).toEqual({
      status: 'delivered',
      attempts: 1,
      log: [{ attempt: 1, status_code: 204 }],
    });

    const sent = receiver.requests.slice(before);
    expect(sent.map((r) => r.headers['webhook-id']).sort()).toEqual([abandoned, missing].sort());
    for (const request of sent) {
      const headers = request.headers as Record<string, string>;
      expect(new Webhook(newSecret).verify(request.body, headers)).toMatchObject({
        id: headers['webhook-id'],
      });
      expect(() => new Webhook(secret).verify(request.body, headers)).toThrow();
    }

    // Delivered now: a second replay finds nothing.
    const again = await admin('webhooks:replay', '--account', accountId);
    expect({ code: again.code, err: again.err }).toEqual({ code: 0, err: '' });
    expect(again.json).toMatchObject({
      found: { abandoned: 0, stalled: 0, missing: 0 },
      replayed: 0,
    });
  });

  it('workers:pause holds new jobs until workers:resume', async () => {
    const paused = await admin('workers:pause', '--queue', 'tasks');
    expect(paused.json).toEqual({ tasks: { paused: true, waiting: 0, active: 0 } });
    const id = await lostTask({});
    await admin('tasks:requeue');
    await sleep(1000);
    expect(await statusOf(id)).toBe('created');

    const resumed = await admin('workers:resume');
    expect(resumed.code).toBe(0);
    expect(resumed.json.tasks.paused).toBe(false);
    expect(Object.keys(resumed.json).sort()).toEqual(['billing', 'tasks', 'webhooks']);
    await until(async () => (await statusOf(id)) === 'completed', SETTLED);
  });

  it('queues:owner names the installation owning the prefix; another database is refused until it takes over', async () => {
    const owned = await admin('queues:owner');
    expect(owned.code).toBe(0);
    // The workers started above claimed the prefix for this database.
    expect(owned.json).toEqual({
      queue_prefix: prefix,
      owner: expect.stringMatching(
        new RegExp(`^database ${db.name} at 127\\.0\\.0\\.1:5432 \\(PostgreSQL system \\d+\\)$`),
      ),
      claimed_now: false,
    });
    const other = await createTestDatabase('recovery-owner');
    try {
      const run = (...argv: string[]) => adminOn({ ...env, DATABASE_URL: other.url }, argv);
      const refused = await run('tasks:requeue', '--dry-run');
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(
        new RegExp(
          `^admin: tasks:requeue: QUEUE_PREFIX "${prefix}" belongs to another installation \\(database ${db.name} .*\\), not to this one \\(database ${other.name} .*\\n$`,
        ),
      );
      const taken = await run('queues:owner', '--take-over');
      expect(taken.code).toBe(0);
      expect(taken.json.previous_owner).toBe(owned.json.owner);
      expect((await run('queues:owner')).json.owner).toMatch(`database ${other.name} `);
      // Handed back, as an operator would after trying the restored copy.
      await admin('queues:owner', '--take-over');
      expect((await admin('queues:owner')).json.claimed_now).toBe(false);
    } finally {
      await dropTestDatabase(other.name);
    }
  });

  it('refuses bad arguments with one line', async () => {
    const cases: [string[], RegExp][] = [
      [['webhooks:replay', '--since', 'yesterday'], /--since must be an ISO 8601/],
      [['webhooks:replay', '--task', 'x'], /--task must be a UUID/],
      [['workers:pause', '--queue', 'emails'], /--queue must be one of: tasks, billing, webhooks/],
    ];
    for (const [argv, message] of cases) {
      const result = await admin(...argv);
      expect(result.code).toBe(1);
      expect(result.err).toMatch(message);
    }
  });
});
