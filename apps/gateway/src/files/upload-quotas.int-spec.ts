import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { SweepExpiredUploadsUseCase } from '@genhub/storage';
import {
  admin,
  call,
  createAccountWithKey,
  RunningGateway,
  startGateway,
} from '../test/gateway-harness.util';

/** A 1×1 PNG; longer files are it followed by zeros (the format is read from the first bytes). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const png = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]);

const KB = 1024;
/** The limited gateway's quotas: three 20 KB files fit, a fourth does not. */
const QUOTA_BYTES = 64 * KB;
const PER_DAY = 12;

interface V3Answer {
  code: number;
  message: string;
  data: null | { url?: string; download_url?: string; upload?: { url: string } };
}

/**
 * Upload quotas and single-use tickets (issue 34) through the gateway's HTTP
 * routes, local-disk storage, real PostgreSQL: stored bytes and uploads per
 * day per account, exact under parallel requests (multipart uploads and
 * direct-upload tickets alike), suspended accounts refused, and a direct
 * upload's ticket taken by exactly one of many concurrent PUTs.
 */
describe('upload quotas and single-use tickets (in-process gateways, PostgreSQL)', () => {
  let dir: string;
  let limited: RunningGateway;
  let plain: RunningGateway;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'genhub-upload-quotas-'));
    [limited, plain] = await Promise.all([
      startGateway({
        STORAGE_DIR: join(dir, 'limited'),
        UPLOAD_QUOTA_BYTES: String(QUOTA_BYTES),
        UPLOAD_QUOTA_PER_DAY: String(PER_DAY),
      }),
      startGateway({ STORAGE_DIR: join(dir, 'plain') }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([limited?.close(), plain?.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  const upload = async (gw: RunningGateway, key: string, file: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([file], { type: 'image/png' }), 'file.png');
    const response = await fetch(`${gw.url}/api/v3/files/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as V3Answer };
  };
  const ticket = async (gw: RunningGateway, key: string, size: number) => {
    const answer = await call(`${gw.url}/api/v3/media/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: { filename: 'file.png', size, content_type: 'image/png' },
    });
    return { status: answer.status, body: answer.body as V3Answer };
  };
  const put = async (url: string, file: Buffer) => {
    const response = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: file,
    });
    return { status: response.status, body: (await response.json()) as V3Answer };
  };
  /** The files stored for an account (uploads/{account}/{day}/{uuid}.png). */
  const storedFor = async (gw: 'limited' | 'plain', accountId: string) => {
    const root = join(dir, gw, 'uploads', accountId);
    const days = await readdir(root).catch(() => []);
    const files = await Promise.all(days.map((day) => readdir(join(root, day))));
    return files.flat().length;
  };
  const statuses = (answers: { status: number }[]) => answers.map((a) => a.status).sort();

  describe('stored bytes per account', () => {
    it('an upload that would pass the quota is refused with 413 and kept nowhere; a ticket counts its declared size', async () => {
      const { accountId, key } = await createAccountWithKey(limited.url, 0);
      for (let i = 0; i < 3; i++)
        expect((await upload(limited, key, png(20 * KB))).status).toBe(200);
      const refused = await upload(limited, key, png(20 * KB));
      expect(refused).toEqual({
        status: 413,
        body: {
          code: 413,
          message:
            'Upload storage quota exceeded: the unexpired uploads of this account may hold 64 KB (60 KB held now); this file is larger than the 4 KB left',
          data: null,
        },
      });
      const tooBig = await ticket(limited, key, 5 * KB);
      expect(tooBig).toEqual({
        status: 413,
        body: {
          code: 413,
          message:
            'Upload storage quota exceeded: the unexpired uploads of this account may hold 64 KB (60 KB held now); this file is 5 KB',
          data: null,
        },
      });
      // Exactly what is left still fits, counted from the ticket on; then the quota is full.
      expect((await ticket(limited, key, 4 * KB)).status).toBe(200);
      const full = await upload(limited, key, PNG);
      expect(full.status).toBe(413);
      expect(full.body.message).toBe(
        'Upload storage quota exceeded: the unexpired uploads of this account may hold 64 KB (64 KB held now)',
      );
      expect(await storedFor('limited', accountId)).toBe(3);
    });

    it('parallel uploads and tickets cannot together pass the quota', async () => {
      const a = await createAccountWithKey(limited.url, 0);
      const uploads = await Promise.all(
        Array.from({ length: 8 }, () => upload(limited, a.key, png(20 * KB))),
      );
      expect(statuses(uploads)).toEqual([200, 200, 200, 413, 413, 413, 413, 413]);
      expect(await storedFor('limited', a.accountId)).toBe(3);

      const b = await createAccountWithKey(limited.url, 0);
      const tickets = await Promise.all(
        Array.from({ length: 8 }, () => ticket(limited, b.key, 20 * KB)),
      );
      expect(statuses(tickets)).toEqual([200, 200, 200, 413, 413, 413, 413, 413]);
    });

    it('uploads stop counting when they expire (7 days); the sweep forgets them', async () => {
      const { accountId, key } = await createAccountWithKey(limited.url, 0);
      for (let i = 0; i < 3; i++) await upload(limited, key, png(20 * KB));
      expect((await upload(limited, key, png(20 * KB))).status).toBe(413);
      const db = limited.app.get(DataSource);
      await db.query(
        `UPDATE accounts.uploads SET created_at = created_at - interval '8 days',
                expires_at = expires_at - interval '8 days' WHERE account_id = $1`,
        [accountId],
      );
      expect((await upload(limited, key, png(20 * KB))).status).toBe(200);
      await limited.app.get(SweepExpiredUploadsUseCase).execute();
      const left = await db.query(
        `SELECT count(*)::int AS n FROM accounts.uploads WHERE account_id = $1`,
        [accountId],
      );
      expect(left).toEqual([{ n: 1 }]);
    });
  });

  it('uploads per UTC day: past the limit, 429, whichever way they come, however parallel', async () => {
    const { accountId, key } = await createAccountWithKey(limited.url, 0);
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, () => upload(limited, key, PNG)),
      ...Array.from({ length: 8 }, () => ticket(limited, key, PNG.length)),
    ]);
    expect(statuses(answers)).toEqual([...Array(PER_DAY).fill(200), 429, 429, 429, 429]);
    expect(answers.find((a) => a.status === 429)?.body).toEqual({
      code: 429,
      message: `Daily upload limit reached: at most ${PER_DAY} uploads per account per day (UTC); more are accepted from 00:00 UTC`,
      data: null,
    });
    expect(await storedFor('limited', accountId)).toBe(
      answers.slice(0, 8).filter((a) => a.status === 200).length,
    );
  });

  it('a suspended account uploads nothing: not with its key, not with a ticket it was given before', async () => {
    const { accountId, key } = await createAccountWithKey(plain.url, 0);
    const issued = await ticket(plain, key, PNG.length);
    expect(issued.status).toBe(200);
    await call(`${plain.url}/admin/v1/accounts/${accountId}/suspend`, {
      method: 'POST',
      headers: admin(),
    });
    const suspended = { code: 403, message: 'Account suspended', data: null };
    expect(await put(issued.body.data?.upload?.url as string, PNG)).toEqual({
      status: 403,
      body: suspended,
    });
    expect(await upload(plain, key, PNG)).toEqual({ status: 403, body: suspended });
    expect(await ticket(plain, key, PNG.length)).toEqual({ status: 403, body: suspended });
    expect(await storedFor('plain', accountId)).toBe(0);
    // Back in service, the ticket (still unused, still within its 15 minutes) works.
    await call(`${plain.url}/admin/v1/accounts/${accountId}/unsuspend`, {
      method: 'POST',
      headers: admin(),
    });
    expect((await put(issued.body.data?.upload?.url as string, PNG)).status).toBe(200);
    expect(await storedFor('plain', accountId)).toBe(1);
  });

  it('a ticket is taken by exactly one of many concurrent PUTs; the others are told it was used', async () => {
    const { accountId, key } = await createAccountWithKey(plain.url, 0);
    const file = png(4 * 1024 * KB);
    const issued = await ticket(plain, key, file.length);
    const url = issued.body.data?.upload?.url as string;
    const answers = await Promise.all(Array.from({ length: 6 }, () => put(url, file)));
    expect(statuses(answers)).toEqual([200, 409, 409, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409))
      expect(answer.body).toEqual({ code: 409, message: 'Upload ticket already used', data: null });
    expect(answers.find((a) => a.status === 200)?.body.data).toEqual({
      url: issued.body.data?.download_url,
    });
    expect(await storedFor('plain', accountId)).toBe(1);
    // And once more, afterwards.
    expect((await put(url, file)).status).toBe(409);
  });

  it('a PUT that fails gives the ticket back: the same ticket works once the body is right', async () => {
    const { key } = await createAccountWithKey(plain.url, 0);
    const issued = await ticket(plain, key, PNG.length);
    const url = issued.body.data?.upload?.url as string;
    const lie = Buffer.from('GIF89a'.padEnd(PNG.length, '!'));
    expect((await put(url, lie)).status).toBe(400);
    expect((await put(url, PNG)).status).toBe(200);
    expect((await put(url, PNG)).status).toBe(409);
  });
});
