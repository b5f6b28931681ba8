import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { dataSourceOptions, encodeKeysetCursor } from '@genhub/database';
import { JobName, QueueName } from '@genhub/queue';
import { FairStage } from '@genhub/queue';
import {
  createTestDatabase,
  deleteQueuePrefix,
  dropTestDatabase,
  insertTask,
  testQueuePrefix,
} from '@genhub/testing';
import { admin, call, RunningGateway, startGateway } from '../test/gateway-harness.util';

interface QueueAccount {
  account_id: string;
  waiting: number;
  running: number;
  oldest_waiting_at: string | null;
}
interface QueuePage {
  data: QueueAccount[];
  next_cursor: string | null;
  totals: { waiting: number; running: number; accounts: number };
}

/**
 * The operator's queue by account (issue 36): `GET /admin/v1/queue/accounts`
 * and the per-account gauges, on a database and a queue prefix of this file's
 * own (the totals are the whole queue's: no other file's tasks may count).
 */
describe('admin queue by account (in-process gateway, PostgreSQL + Redis)', () => {
  let database: { url: string; name: string };
  let prefix: string;
  let gw: RunningGateway;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('queueacct');
    prefix = testQueuePrefix('queueacct');
    gw = await startGateway({ DATABASE_URL: database.url, QUEUE_PREFIX: prefix });
    db = new DataSource(dataSourceOptions({ url: database.url }));
    await db.initialize();
  });
  afterAll(async () => {
    await Promise.all([gw?.close(), db?.destroy()]);
    await deleteQueuePrefix(process.env.REDIS_URL as string, prefix);
    if (database) await dropTestDatabase(database.name);
  });

  const list = (query = '', headers: Record<string, string> = admin()) =>
    call(`${gw.url}/admin/v1/queue/accounts${query}`, { headers });

  async function addTasks(accountId: string, status: string, count: number): Promise<Date[]> {
    const times: Date[] = [];
    for (let i = 0; i < count; i++) {
      const id = randomUUID();
      times.push(
        await insertTask(db, {
          id,
          accountId,
          model: 'local/simulator/test',
          channel: 'local',
          category: 'image',
          input: {},
          webhookUrl: null,
          outputPrefix: null,
          priceUnits: 1,
          timeLimitMs: 60_000,
        }),
      );
      if (status !== 'created')
        await db.query(
          `UPDATE tasks.tasks SET status = $2, code = CASE WHEN $2 IN ('completed', 'failed') THEN 0 END WHERE id = $1`,
          [id, status],
        );
    }
    return times;
  }

  /** Every page from the first, `limit` at a time. */
  async function allPages(limit: number): Promise<QueuePage[]> {
    const pages: QueuePage[] = [];
    let cursor: string | null = null;
    do {
      const response = await list(
        `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(response.status).toBe(200);
      const page = response.body as QueuePage;
      pages.push(page);
      cursor = page.next_cursor;
    } while (cursor && pages.length < 100);
    return pages;
  }

  it('answers an empty queue with no accounts, a null cursor and zero totals', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [],
      next_cursor: null,
      totals: { waiting: 0, running: 0, accounts: 0 },
    });
  });

  /** Waiting and running tasks per account; ties on waiting are ordered by account id. */
  const SHAPE: [waiting: number, running: number][] = [
    [9, 1],
    [7, 0],
    [7, 2],
    [5, 0],
    [4, 1],
    [4, 0],
    [3, 0],
    [3, 3],
    [2, 0],
    [2, 1],
    [1, 0],
    [1, 0],
    [1, 2],
    [0, 2], // running only: listed, after every account with waiting tasks
  ];
  const expected: QueueAccount[] = [];

  it('lists every account with open tasks, most waiting first, with exact totals', async () => {
    for (const [waiting, running] of SHAPE) {
      const accountId = randomUUID();
      const times = await addTasks(accountId, 'created', waiting);
      await addTasks(accountId, 'processing', running);
      // Finished and deleted tasks never count.
      await addTasks(accountId, 'completed', 1);
      await addTasks(accountId, 'deleted', 1);
      expected.push({
        account_id: accountId,
        waiting,
        running,
        oldest_waiting_at: times.length ? times[0].toISOString() : null,
      });
    }
    // An account whose tasks all ended is not in the queue.
    await addTasks(randomUUID(), 'failed', 2);
    expected.sort((a, b) =>
      a.waiting !== b.waiting ? b.waiting - a.waiting : a.account_id < b.account_id ? -1 : 1,
    );

    const totals = {
      waiting: SHAPE.reduce((n, [w]) => n + w, 0),
      running: SHAPE.reduce((n, [, r]) => n + r, 0),
      accounts: SHAPE.length,
    };
    const whole = await list('?limit=100');
    expect(whole.body).toEqual({ data: expected, next_cursor: null, totals });
    // The default page is 20: all 14 here.
    expect(((await list()).body as QueuePage).data).toEqual(expected);

    for (const limit of [1, 3, 5, 13, 14]) {
      const pages = await allPages(limit);
      expect(pages).toHaveLength(Math.ceil(expected.length / limit));
      for (const page of pages) {
        expect(page.data.length).toBeLessThanOrEqual(limit);
        expect(page.totals).toEqual(totals);
      }
      // No gap, no duplicate: the pages joined are the whole list.
      expect(pages.flatMap((p) => p.data)).toEqual(expected);
      expect(pages[pages.length - 1].next_cursor).toBeNull();
    }
  });

  it('refuses a cursor it did not make, a bad limit and unknown parameters with a 400 in the admin shape', async () => {
    const otherKind = encodeKeysetCursor({
      createdAt: '2026-11-26T01:02:03.456789Z',
      id: randomUUID(),
    });
    for (const cursor of ['nope', otherKind, Buffer.from('c.-1|x').toString('base64url')]) {
      const response = await list(`?cursor=${encodeURIComponent(cursor)}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        code: 400,
        error: 'Invalid request: cursor must be a next_cursor passed back as it was given',
      });
    }
    for (const query of ['?limit=0', '?limit=101', '?limit=x', '?status=created']) {
      const response = await list(query);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 400 });
    }
  });

  it('needs the admin token', async () => {
    expect((await list('', {})).status).toBe(401);
    expect((await list('', admin('not-the-admin-token'))).status).toBe(401);
  });

  it('exports the ten accounts with the most waiting, the rest as one `other`, and the waiting work', async () => {
    // Tasks in the fair stage and jobs in the run queue's wait list: the total waiting work.
    const stage = gw.app.get(FairStage);
    for (let i = 0; i < 3; i++)
      await stage.add({ accountId: randomUUID(), taskId: randomUUID() }, { weight: 1 });
    const tasks = gw.app.get<Queue>(getQueueToken(QueueName.Tasks), { strict: false });
    for (let i = 0; i < 2; i++)
      await tasks.add(JobName.RunTask, { v: 1, taskId: randomUUID() }, { jobId: randomUUID() });

    const scrape = async () => {
      const text = (await call(`${gw.url}/metrics`)).text;
      const series = new Map<string, number>();
      for (const m of text.matchAll(
        /^(genhub_(?:account_tasks|accounts_waiting|tasks_waiting)(?:\{[^}]*\})?) (\S+)$/gm,
      ))
        series.set(m[1].replace(/,?service="gateway"/, '').replace('{}', ''), Number(m[2]));
      return series;
    };
    const series = await scrape();
    const accountSeries = [...series.keys()].filter((k) => k.startsWith('genhub_account_tasks'));
    // 10 accounts and `other`, two states each: bounded whatever the number of accounts.
    expect(accountSeries).toHaveLength(22);
    const top = expected.slice(0, 10);
    const rest = expected.slice(10);
    for (const row of top) {
      expect(series.get(`genhub_account_tasks{account="${row.account_id}",state="waiting"}`)).toBe(
        row.waiting,
      );
      expect(series.get(`genhub_account_tasks{account="${row.account_id}",state="running"}`)).toBe(
        row.running,
      );
    }
    const sum = (rows: QueueAccount[], key: 'waiting' | 'running') =>
      rows.reduce((n, row) => n + row[key], 0);
    expect(series.get(`genhub_account_tasks{account="other",state="waiting"}`)).toBe(
      sum(rest, 'waiting'),
    );
    expect(series.get(`genhub_account_tasks{account="other",state="running"}`)).toBe(
      sum(rest, 'running'),
    );
    expect(series.get('genhub_accounts_waiting')).toBe(expected.filter((r) => r.waiting).length);
    expect(series.get('genhub_tasks_waiting')).toBe(5);

    // The grouped query runs at most every 15 s: a new account's tasks show at the next refresh.
    const newcomer = randomUUID();
    await addTasks(newcomer, 'created', 20);
    const again = await scrape();
    expect(again.get('genhub_accounts_waiting')).toBe(expected.filter((r) => r.waiting).length);
    expect([...again.keys()].some((k) => k.includes(newcomer))).toBe(false);
  });
});
