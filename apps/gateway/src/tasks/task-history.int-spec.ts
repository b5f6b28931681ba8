import { DataSource } from 'typeorm';
import {
  call,
  createAccountWithKey,
  RunningGateway,
  startGateway,
} from '../test/gateway-harness.util';

type Page = {
  items: { id: string; status: string; input?: unknown; code: number | null }[];
  next_cursor: string | null;
};

/**
 * GET /api/v3/predictions (issue 21): the caller's tasks only, newest first,
 * deleted ones never, filters, and keyset pages that stay stable while new
 * tasks arrive.
 */
describe('task history (in-process gateway, PostgreSQL + Redis)', () => {
  let gw: RunningGateway;
  let db: DataSource;
  let a: { accountId: string; key: string };
  let b: { accountId: string; key: string };
  const ids: string[] = []; // account A's, oldest first

  const submit = async (key: string, prompt: string) => {
    const answer = await call(`${gw.url}/v1/local/simulator/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: { prompt },
    });
    return (answer.body as { id: string }).id;
  };
  const list = async (key: string, query = '') => {
    const answer = await call(`${gw.url}/api/v3/predictions${query}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return {
      status: answer.status,
      body: answer.body as { code: number; message: string; data: Page },
    };
  };

  beforeAll(async () => {
    gw = await startGateway();
    db = gw.app.get(DataSource);
    a = await createAccountWithKey(gw.url, 1);
    b = await createAccountWithKey(gw.url, 1);
    for (let i = 0; i < 7; i++) ids.push(await submit(a.key, `task ${i}`));
    await submit(b.key, 'not yours');
    await db.query(
      `UPDATE tasks.tasks SET status = 'completed', code = 0, outputs = '["https://cdn/x.png"]',
         timings = '{"queue_wait":1,"worker_init":1,"api_call":1,"save":1,"run_overhead":1,"total":5}'
       WHERE id = $1`,
      [ids[1]],
    );
    await db.query(
      `UPDATE tasks.tasks SET status = 'failed', code = 1200, error = 'bad' WHERE id = $1`,
      [ids[2]],
    );
    await db.query(`UPDATE tasks.tasks SET status = 'deleted', deleted_at = now() WHERE id = $1`, [
      ids[3],
    ]);
  });
  afterAll(() => gw.close());

  it('lists the caller’s tasks newest first, deleted ones left out, in pages that add up', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof list>> = await list(
        a.key,
        `?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.data.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.items.map((t) => t.id));
      cursor = page.body.data.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse().filter((id) => id !== ids[3]));
  });

  it('keeps a page sequence stable while new tasks arrive', async () => {
    const first = await list(a.key, '?limit=3');
    const newer = await submit(a.key, 'arrived meanwhile');
    const second = await list(a.key, `?limit=3&cursor=${first.body.data.next_cursor}`);
    const all = [...first.body.data.items, ...second.body.data.items].map((t) => t.id);
    expect(new Set(all).size).toBe(all.length);
    expect(all).not.toContain(newer);
    expect(all).toEqual([ids[6], ids[5], ids[4], ids[2], ids[1], ids[0]]);
    expect((await list(a.key, '?limit=1')).body.data.items[0].id).toBe(newer);
  });

  it('filters by status, model prefix and creation time; the input only when asked', async () => {
    expect((await list(a.key, '?status=completed')).body.data.items).toEqual([
      expect.objectContaining({
        id: ids[1],
        status: 'completed',
        code: 0,
        outputs: ['https://cdn/x.png'],
        timings: expect.objectContaining({ total: 5 }),
      }),
    ]);
    expect((await list(a.key, '?status=failed')).body.data.items).toEqual([
      expect.objectContaining({ id: ids[2], code: 1200, error: 'bad', outputs: [] }),
    ]);
    expect((await list(a.key, '?model=local/')).body.data.items.length).toBeGreaterThanOrEqual(6);
    expect((await list(a.key, '?model=local/image')).body.data.items).toEqual([]);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await list(a.key, `?created_after=${future}`)).body.data.items).toEqual([]);
    expect(
      (await list(a.key, `?created_before=${future}&limit=100`)).body.data.items.length,
    ).toBeGreaterThanOrEqual(6);
    const withInput = await list(a.key, '?limit=1&include=input');
    expect(withInput.body.data.items[0].input).toEqual({ prompt: 'arrived meanwhile' });
    expect((await list(a.key, '?limit=1')).body.data.items[0]).not.toHaveProperty('input');
  });

  it('never shows another account’s task, listed or read', async () => {
    const theirs = await list(b.key);
    expect(theirs.body.data.items.map((t) => t.id)).not.toEqual(expect.arrayContaining([ids[0]]));
    expect(theirs.body.data.items).toHaveLength(1);
    const read = await call(`${gw.url}/api/v3/predictions/${ids[0]}/result`, {
      headers: { authorization: `Bearer ${b.key}` },
    });
    expect([read.status, read.body]).toEqual([
      404,
      { code: 404, message: 'Not found', data: null },
    ]);
  });

  it('refuses a bad query in the envelope family', async () => {
    for (const query of [
      '?cursor=bm90LWEtY3Vyc29y',
      '?limit=101',
      '?status=deleted',
      '?sort=asc',
      '?limit=1&limit=2',
    ])
      expect([query, (await list(a.key, query)).body]).toEqual([
        query,
        { code: 400, message: expect.any(String), data: null },
      ]);
    expect((await list('gh_nope')).status).toBe(401);
  });
});
