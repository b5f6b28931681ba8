import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { PepperConfig } from '@genhub/config';
import { AppException } from '@genhub/errors';
import { LocalDiskStorage } from '../../drivers/local-disk-storage.adapter';
import { IssueUploadTicketUseCase } from './issue-upload-ticket.use-case';
import { InMemoryUploadQuota } from '../testing/in-memory-upload-quota';
import { ReceiveDirectUploadUseCase } from './receive-direct-upload.use-case';
import {
  declaredFormat,
  readTicket,
  signTicket,
  UPLOAD_TICKET_TTL_SECONDS,
} from './upload-ticket.util';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const security = Object.assign(new PepperConfig(), {
  API_KEY_PEPPER: 'local-direct-upload-pepper',
});

describe('direct uploads on local disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'genhub-direct-local-'));
  const storage = new LocalDiskStorage(dir, 'http://127.0.0.1:3000/cdn');
  const quota = new InMemoryUploadQuota();
  const tickets = new IssueUploadTicketUseCase(storage, security, quota);
  const receive = new ReceiveDirectUploadUseCase(storage, security, quota);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const issue = (now = new Date()) =>
    tickets.execute({
      accountId: 'acc',
      filename: 'cat.png',
      size: PNG.length,
      gatewayOrigin: 'http://gw',
      now,
    });
  const parts = (url: string) => {
    const parsed = new URL(url);
    return {
      id: parsed.pathname.split('/').pop() as string,
      token: parsed.searchParams.get('ticket') as string,
    };
  };
  const send = (url: string, now?: Date, id?: string) =>
    receive.execute({
      ...parts(url),
      ...(id ? { id } : {}),
      contentType: 'image/png',
      contentLength: PNG.length,
      body: Readable.from([PNG]),
      now,
    });
  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'accepted',
      (error: AppException) => error.code,
    );

  it('points the PUT back at the gateway, signed; the file lands at download_url', async () => {
    const ticket = await issue();
    expect(ticket.upload).toEqual({
      url: expect.stringMatching(/^http:\/\/gw\/api\/v3\/media\/uploads\/[0-9a-f-]{36}\?ticket=/),
      method: 'PUT',
      headers: { 'Content-Type': 'image/png' },
    });
    expect(await send(ticket.upload.url)).toEqual({ url: ticket.download_url });
    expect((await storage.stat(storage.keyFromUrl(ticket.download_url) as string))?.size).toBe(
      PNG.length,
    );
  });

  it('refuses a ticket past its 15 minutes, and one used for another file id', async () => {
    const issuedAt = new Date('2026-01-01T00:00:00Z');
    const ticket = await issue(issuedAt);
    const late = new Date(issuedAt.getTime() + UPLOAD_TICKET_TTL_SECONDS * 1000 + 1);
    expect(await codeOf(send(ticket.upload.url, late))).toBe('upload_ticket_refused');
    expect(
      await codeOf(send(ticket.upload.url, issuedAt, '00000000-0000-4000-8000-000000000000')),
    ).toBe('upload_ticket_refused');
    expect(await codeOf(send(ticket.upload.url, issuedAt))).toBe('accepted');
  });

  it('signs tickets with the deployment secret only', () => {
    const token = signTicket(
      { key: 'uploads/a/b/c.png', size: 1, contentType: 'image/png', expiresAt: 1 },
      'secret-one',
    );
    expect(readTicket(token, 'secret-one')).toMatchObject({ key: 'uploads/a/b/c.png' });
    expect(readTicket(token, 'secret-two')).toBeUndefined();
    expect(readTicket(`${token}x`, 'secret-one')).toBeUndefined();
  });

  it('reads the declared type from the content type (the SDK’s names too) or the extension', () => {
    expect(declaredFormat('a.bin', 'audio/x-wav')?.name).toBe('WAV');
    expect(declaredFormat('a.bin', 'image/jpg')?.name).toBe('JPEG');
    expect(declaredFormat('photo.JPEG')?.name).toBe('JPEG');
    expect(declaredFormat('notes.txt')).toBeUndefined();
    expect(declaredFormat('a.png', 'text/plain')).toBeUndefined();
  });
});
