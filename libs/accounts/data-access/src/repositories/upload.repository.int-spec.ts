import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
import { AccountRepository } from './account.repository';
import { NewUpload, UploadRepository, utcDayStart } from './upload.repository';

const DAY = 24 * 60 * 60 * 1000;
const WEEK = 7 * DAY;
const NO_LIMITS = { maxBytes: 0, maxPerDay: 0 };

describe('upload repository (PostgreSQL)', () => {
  let dataSource: DataSource;
  let accounts: AccountRepository;
  let uploads: UploadRepository;

  beforeAll(async () => {
    // Enough connections for the parallel transactions below to really overlap.
    dataSource = new DataSource(
      dataSourceOptions({ url: process.env.DATABASE_URL as string, poolSize: 12 }),
    );
    await dataSource.initialize();
    accounts = new AccountRepository(dataSource);
    uploads = new UploadRepository(dataSource);
  });
  afterAll(() => dataSource.destroy());

  const account = async () =>
    (await accounts.createAccount({ currency: 'USD', accountLevel: 'Bronze' })).id;
  const upload = (
    accountId: string,
    bytes: number,
    now = new Date(),
    state: NewUpload['state'] = 'stored',
  ): NewUpload => ({
    accountId,
    key: `uploads/${accountId}/${randomUUID()}.png`,
    bytes,
    state,
    now,
    expiresAt: new Date(now.getTime() + WEEK),
  });

  it('counts what unexpired uploads hold, and the uploads of the UTC day', async () => {
    const id = await account();
    const now = new Date('2030-03-10T12:00:00Z');
    for (const [bytes, at] of [
      [100, new Date(now.getTime() - WEEK - 1)], // expired: counts for nothing
      [200, new Date(now.getTime() - 2 * DAY)],
      [300, new Date('2030-03-09T23:59:59.999Z')], // yesterday (UTC)
      [400, new Date('2030-03-10T00:00:00Z')], // today
    ] as const)
      expect(await uploads.record(upload(id, bytes, at), NO_LIMITS)).toEqual({ recorded: true });
    expect(await uploads.usage(id, now)).toEqual({
      status: 'active',
      heldBytes: 900,
      uploadsToday: 1,
    });
    expect(utcDayStart(now).toISOString()).toBe('2030-03-10T00:00:00.000Z');
    expect(await uploads.usage(randomUUID(), now)).toMatchObject({ status: undefined });
    expect(await uploads.usage('not-a-uuid', now)).toMatchObject({ status: undefined });
  });

  it('refuses what would pass a limit, and a suspended or unknown account; 0 is no limit', async () => {
    const id = await account();
    const limits = { maxBytes: 1000, maxPerDay: 3 };
    expect(await uploads.record(upload(id, 600), limits)).toEqual({ recorded: true });
    expect(await uploads.record(upload(id, 401), limits)).toMatchObject({
      recorded: false,
      refusal: 'bytes',
      usage: { heldBytes: 600, uploadsToday: 1 },
    });
    expect(await uploads.record(upload(id, 400), limits)).toEqual({ recorded: true });
    expect(await uploads.record(upload(id, 0), limits)).toEqual({ recorded: true });
    expect(await uploads.record(upload(id, 0), limits)).toMatchObject({ refusal: 'daily' });
    // Tomorrow (UTC) the count starts again; the bytes still count for the week.
    const tomorrow = new Date(utcDayStart(new Date()).getTime() + DAY);
    expect(await uploads.record(upload(id, 1, tomorrow), limits)).toMatchObject({
      refusal: 'bytes',
    });
    expect(await uploads.record(upload(id, 0, tomorrow), limits)).toEqual({ recorded: true });
    expect(await uploads.record(upload(id, 10 ** 12), NO_LIMITS)).toEqual({ recorded: true });

    await accounts.setStatus(id, 'suspended');
    expect(await uploads.record(upload(id, 1), NO_LIMITS)).toMatchObject({ refusal: 'suspended' });
    expect(await uploads.record(upload(randomUUID(), 1), NO_LIMITS)).toMatchObject({
      refusal: 'unknown-account',
    });
  });

  it('parallel uploads of one account cannot together pass its limits', async () => {
    const bytes = await account();
    const byBytes = await Promise.all(
      Array.from({ length: 10 }, () =>
        uploads.record(upload(bytes, 30), { maxBytes: 100, maxPerDay: 0 }),
      ),
    );
    expect(byBytes.filter((r) => r.recorded)).toHaveLength(3);
    expect((await uploads.usage(bytes, new Date())).heldBytes).toBe(90);

    const count = await account();
    const byCount = await Promise.all(
      Array.from({ length: 10 }, () =>
        uploads.record(upload(count, 1), { maxBytes: 0, maxPerDay: 4 }),
      ),
    );
    expect(byCount.filter((r) => r.recorded)).toHaveLength(4);
  });

  it('a ticket is claimed once, however many race; given back on failure; refused while suspended', async () => {
    const id = await account();
    const ticket = upload(id, 10, new Date(), 'ticketed');
    await uploads.record(ticket, NO_LIMITS);
    const claims = await Promise.all(Array.from({ length: 8 }, () => uploads.claim(ticket.key)));
    expect(claims.sort()).toEqual(['claimed', ...Array(7).fill('used')]);
    await uploads.release(ticket.key);
    expect(await uploads.claim(ticket.key)).toBe('claimed');
    await uploads.markStored(ticket.key);
    await uploads.release(ticket.key); // a stored upload is never given back
    expect(await uploads.claim(ticket.key)).toBe('used');

    const later = upload(id, 10, new Date(), 'ticketed');
    await uploads.record(later, NO_LIMITS);
    await accounts.setStatus(id, 'suspended');
    expect(await uploads.claim(later.key)).toBe('suspended');
    await accounts.setStatus(id, 'active');
    expect(await uploads.claim(later.key)).toBe('claimed');
    expect(await uploads.claim(`uploads/${id}/unknown.png`)).toBe('unknown');
  });

  it('forgets expired uploads', async () => {
    const id = await account();
    const old = upload(id, 5, new Date(Date.now() - WEEK - 60_000));
    const fresh = upload(id, 7);
    await uploads.record(old, NO_LIMITS);
    await uploads.record(fresh, NO_LIMITS);
    expect(await uploads.deleteExpired(new Date())).toBeGreaterThanOrEqual(1);
    const keys = (
      await dataSource.query(`SELECT key FROM accounts.uploads WHERE account_id = $1`, [id])
    ).map((row: { key: string }) => row.key);
    expect(keys).toEqual([fresh.key]);
  });
});
