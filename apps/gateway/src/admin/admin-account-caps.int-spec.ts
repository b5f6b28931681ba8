import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { SubmitTaskInput, SubmitTaskUseCase } from '@genhub/task-engine';
import { until } from '@genhub/testing';
import {
  AdminAccount,
  admin,
  call,
  createAccountWithKey,
  RunningGateway,
  startGateway,
} from '../test/gateway-harness.util';

/**
 * `PATCH /admin/v1/accounts/{id}` (issue 36): an account's level and its optional cap on
 * tasks running at once, shown by the admin API, handed to the fair stage at once, and
 * carried by the principal every gateway authenticates.
 */
describe('admin API: per-account concurrency caps (in-process gateways, PostgreSQL + Redis)', () => {
  let gw: RunningGateway;
  let other: RunningGateway;
  let redis: Redis;
  // The fair stage's keys under this run's queue prefix (FairStage documents them).
  const fairKey = (name: string) => `${process.env.QUEUE_PREFIX}:fair:${name}`;

  beforeAll(async () => {
    [gw, other] = await Promise.all([startGateway(), startGateway()]);
    redis = new Redis(process.env.REDIS_URL as string);
  });
  afterAll(async () => {
    redis.disconnect();
    await Promise.all([gw.close(), other.close()]);
  });

  const patch = (id: string, body: unknown, base = gw.url) =>
    call(`${base}/admin/v1/accounts/${id}`, { method: 'PATCH', headers: admin(), body });
  const read = async (id: string): Promise<AdminAccount> =>
    (await call(`${gw.url}/admin/v1/accounts/${id}`, { headers: admin() })).body as AdminAccount;
  const whoami = async (base: string, key: string) =>
    (await call(`${base}/v1/test/whoami`, { headers: { authorization: `Bearer ${key}` } }))
      .body as { accountLevel: string; maxConcurrentTasks: number | null };

  it('has no cap by default; sets one, shows it everywhere, and clears it with null', async () => {
    const { accountId, key } = await createAccountWithKey(gw.url);
    expect(await read(accountId)).toMatchObject({ max_concurrent_tasks: null });
    // Both gateways cache the principal before the change.
    expect(await whoami(gw.url, key)).toMatchObject({ maxConcurrentTasks: null });
    expect(await whoami(other.url, key)).toMatchObject({ maxConcurrentTasks: null });

    const set = await patch(accountId, { max_concurrent_tasks: 3 });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      id: accountId,
      currency: 'USD',
      account_level: 'Bronze',
      balance: 1,
      reserved: 0,
      status: 'active',
      max_concurrent_tasks: 3,
    });
    expect(await read(accountId)).toEqual(set.body);
    const listed = await call(`${gw.url}/admin/v1/accounts?limit=100`, { headers: admin() });
    expect((listed.body as { data: AdminAccount[] }).data).toContainEqual(set.body);

    // The fair stage heard of it at once (Bronze: stride 840, the cap 3).
    expect(await redis.hget(fairKey('caps'), accountId)).toBe('3');
    expect(await redis.hget(fairKey('strides'), accountId)).toBe('840');
    // Every gateway's principal carries the new cap: the cached one was dropped.
    expect(await whoami(gw.url, key)).toMatchObject({ maxConcurrentTasks: 3 });
    expect(
      await until(async () => (await whoami(other.url, key)).maxConcurrentTasks === 3 || undefined),
    ).toBe(true);

    const cleared = await patch(accountId, { max_concurrent_tasks: null }, other.url);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ account_level: 'Bronze', max_concurrent_tasks: null });
    expect(await read(accountId)).toMatchObject({ max_concurrent_tasks: null });
    expect(await redis.hget(fairKey('caps'), accountId)).toBeNull();
    expect(
      await until(async () => (await whoami(gw.url, key)).maxConcurrentTasks === null || undefined),
    ).toBe(true);
  });

  it('changes the level alone, keeping the cap; the stage weighs it at once', async () => {
    const { accountId, key } = await createAccountWithKey(gw.url);
    await patch(accountId, { max_concurrent_tasks: 10_000 });
    expect(await whoami(gw.url, key)).toMatchObject({ accountLevel: 'Bronze' });

    const gold = await patch(accountId, { account_level: 'Gold' });
    expect(gold.status).toBe(200);
    expect(gold.body).toMatchObject({ account_level: 'Gold', max_concurrent_tasks: 10_000 });
    expect(await redis.hget(fairKey('strides'), accountId)).toBe('210'); // Gold: a quarter of Bronze's
    expect(await redis.hget(fairKey('caps'), accountId)).toBe('10000');
    expect(await whoami(gw.url, key)).toEqual(
      expect.objectContaining({ accountLevel: 'Gold', maxConcurrentTasks: 10_000 }),
    );
    // Both at once, and an empty body changes nothing.
    const both = await patch(accountId, { account_level: 'Platinum', max_concurrent_tasks: 1 });
    expect(both.body).toMatchObject({ account_level: 'Platinum', max_concurrent_tasks: 1 });
    const none = await patch(accountId, {});
    expect(none.status).toBe(200);
    expect(none.body).toEqual(both.body);
  });

  it('refuses a bad cap or level with 400 naming the field, and changes nothing', async () => {
    const { accountId } = await createAccountWithKey(gw.url);
    await patch(accountId, { max_concurrent_tasks: 5 });
    for (const [body, field] of [
      [{ max_concurrent_tasks: 0 }, 'max_concurrent_tasks'],
      [{ max_concurrent_tasks: -1 }, 'max_concurrent_tasks'],
      [{ max_concurrent_tasks: 'x' }, 'max_concurrent_tasks'],
      [{ max_concurrent_tasks: '3' }, 'max_concurrent_tasks'],
      [{ max_concurrent_tasks: 10_001 }, 'max_concurrent_tasks'],
      [{ max_concurrent_tasks: 2.5 }, 'max_concurrent_tasks'],
      [{ max_concurrent_tasks: true }, 'max_concurrent_tasks'],
      [{ account_level: 'Diamond' }, 'account_level'],
      [{ account_level: null }, 'account_level'],
      [{ max_concurrent_tasks: 2, status: 'suspended' }, 'status'],
    ] as const) {
      const refused = await patch(accountId, body);
      expect({ body, status: refused.status }).toEqual({ body, status: 400 });
      // The admin family's error body (docs/interface.md, "Admin API"): {code, error}.
      expect(refused.body).toEqual({ code: 400, error: expect.stringContaining(field) });
    }
    expect(await read(accountId)).toMatchObject({
      account_level: 'Bronze',
      max_concurrent_tasks: 5,
    });
    expect(await redis.hget(fairKey('caps'), accountId)).toBe('5');
  });

  it("hands each submit the caller's level and cap (both routes), for the fair stage", async () => {
    const submit = gw.app.get(SubmitTaskUseCase, { strict: false });
    const seen: SubmitTaskInput[] = [];
    const spy = jest.spyOn(submit, 'execute').mockImplementation(async (input) => {
      seen.push(input);
      return { id: randomUUID(), status: 'created', estimated_duration: 1 } as never;
    });
    try {
      const { accountId, key } = await createAccountWithKey(gw.url);
      const auth = { authorization: `Bearer ${key}` };
      const body = { prompt: 'fair' };
      await call(`${gw.url}/v1/local/simulator/test`, { method: 'POST', headers: auth, body });
      await patch(accountId, { account_level: 'Silver', max_concurrent_tasks: 7 });
      await call(`${gw.url}/api/v3/local/simulator/test`, { method: 'POST', headers: auth, body });
      expect(seen.map((i) => [i.accountId, i.accountLevel, i.maxConcurrentTasks])).toEqual([
        [accountId, 'Bronze', null],
        [accountId, 'Silver', 7],
      ]);
    } finally {
      spy.mockRestore();
    }
  });

  it('answers 404 for an unknown or malformed account, 401 without the admin token', async () => {
    for (const id of [randomUUID(), 'not-a-uuid'])
      expect(await patch(id, { max_concurrent_tasks: 2 })).toMatchObject({
        status: 404,
        body: { code: 404, error: 'Not found' },
      });
    const { accountId } = await createAccountWithKey(gw.url);
    const anonymous = await call(`${gw.url}/admin/v1/accounts/${accountId}`, {
      method: 'PATCH',
      body: { max_concurrent_tasks: 2 },
    });
    expect(anonymous.status).toBe(401);
    expect(await read(accountId)).toMatchObject({ max_concurrent_tasks: null });
  });
});
