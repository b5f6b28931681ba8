import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';

describe('WebhookDeliveryRepository (PostgreSQL)', () => {
  let dataSource: DataSource;
  let repo: WebhookDeliveryRepository;

  beforeAll(async () => {
    dataSource = new DataSource(dataSourceOptions({ url: process.env.DATABASE_URL as string }));
    await dataSource.initialize();
    repo = new WebhookDeliveryRepository(dataSource);
  });
  afterAll(() => dataSource.destroy());

  const attempt = (n: number, extra: Partial<{ statusCode: number; error: string }> = {}) => ({
    attempt: n,
    startedAt: new Date(),
    durationMs: 12.4,
    statusCode: extra.statusCode ?? null,
    error: extra.error ?? null,
  });

  it('opens a delivery once and keeps the first one on a re-sent job', async () => {
    const taskId = randomUUID();
    const accountId = randomUUID();
    const first = await repo.openDelivery({ taskId, accountId, url: 'https://a.example/hook' });
    expect(first).toMatchObject({ taskId, accountId, status: 'pending', attempts: 0 });
    const again = await repo.openDelivery({ taskId, accountId, url: 'https://b.example/other' });
    expect(again?.url).toBe('https://a.example/hook');
  });

  it('records attempts in order, abandons after the last and never goes back', async () => {
    const taskId = randomUUID();
    const accountId = randomUUID();
    await repo.openDelivery({ taskId, accountId, url: 'https://a.example/hook' });
    const input = { taskId, accountId };
    expect(
      await repo.recordAttempt({ ...input, ...attempt(1, { statusCode: 500 }), outcome: 'failed' }),
    ).toBe(true);
    // The same attempt again (a re-run job) changes nothing.
    expect(
      await repo.recordAttempt({ ...input, ...attempt(1, { statusCode: 502 }), outcome: 'failed' }),
    ).toBe(false);
    expect(
      await repo.recordAttempt({
        ...input,
        ...attempt(2, { error: 'connect ECONNREFUSED' }),
        outcome: 'abandoned',
      }),
    ).toBe(true);
    expect(
      await repo.recordAttempt({
        ...input,
        ...attempt(3, { statusCode: 200 }),
        outcome: 'delivered',
      }),
    ).toBe(false);

    const log = await repo.findOwnedDeliveryLog(accountId, taskId);
    expect(log).toMatchObject({ status: 'abandoned', attempts: 2, deliveredAt: null });
    expect(log?.attemptLog).toEqual([
      expect.objectContaining({ attempt: 1, statusCode: 500, error: null, durationMs: 12 }),
      expect.objectContaining({ attempt: 2, statusCode: null, error: 'connect ECONNREFUSED' }),
    ]);
  });

  it('marks a 2xx attempt delivered with its time', async () => {
    const taskId = randomUUID();
    const accountId = randomUUID();
    await repo.openDelivery({ taskId, accountId, url: 'https://a.example/hook' });
    await repo.recordAttempt({
      taskId,
      accountId,
      ...attempt(1, { statusCode: 204 }),
      outcome: 'delivered',
    });
    const log = await repo.findOwnedDeliveryLog(accountId, taskId);
    expect(log?.status).toBe('delivered');
    expect(log?.deliveredAt).toBeInstanceOf(Date);
  });

  it('shows a delivery only to its own account, and a malformed id to nobody', async () => {
    const taskId = randomUUID();
    const accountId = randomUUID();
    await repo.openDelivery({ taskId, accountId, url: 'https://a.example/hook' });
    expect(await repo.findOwnedDeliveryLog(randomUUID(), taskId)).toBeUndefined();
    expect(await repo.findOwnedDeliveryLog(accountId, 'not-a-uuid')).toBeUndefined();
    expect(
      await repo.recordAttempt({
        taskId,
        accountId: randomUUID(),
        ...attempt(1, { statusCode: 200 }),
        outcome: 'delivered',
      }),
    ).toBe(false);
    expect((await repo.findOwnedDeliveryLog(accountId, taskId))?.attempts).toBe(0);
  });
});
