import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { PepperConfig } from '@genhub/config';
import { AppErrorCode, AppException } from '@genhub/errors';
import { SNIFF_BYTES, sniffMediaFormat } from '../../media/media-formats.util';
import { peekStream } from '../../media/peek-stream.util';
import { OBJECT_STORAGE, ObjectStorage, ObjectTooLargeError } from '../../object-storage.types';
import { UPLOAD_QUOTA, type UploadQuota } from '../upload-quota.port';
import { formatOfKey, readTicket, type UploadTicket } from './upload-ticket.util';

export interface ReceiveDirectUploadInput {
  /** The id in the URL path (the ticket's file). */
  id: string;
  token: string;
  contentType: string | undefined;
  contentLength: number | undefined;
  body: Readable;
  now?: Date;
}

const refused = (message?: string) =>
  new AppException(AppErrorCode.UploadTicketRefused, message ? { message } : undefined);
const invalid = (message: string, field: string) =>
  new AppException(AppErrorCode.InvalidRequest, { message, fields: [field] });

/**
 * The `PUT` of a local direct upload: the ticket must be ours, for this id,
 * unexpired and unused, its account active; the body exactly the declared
 * size and type, its first bytes the declared format. Streamed to storage
 * (never held whole); any refusal leaves nothing behind. Single-use under
 * concurrency (decision 0129): the ticket is claimed before a byte is read,
 * by one PUT only (the others: 409); a PUT that fails gives it back.
 */
@Injectable()
export class ReceiveDirectUploadUseCase {
  constructor(
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly security: PepperConfig,
    @Inject(UPLOAD_QUOTA) private readonly quota: UploadQuota,
  ) {}

  async execute(input: ReceiveDirectUploadInput): Promise<{ url: string }> {
    const ticket = readTicket(input.token, this.security.API_KEY_PEPPER);
    if (!ticket || !ticket.key.endsWith(`/${input.id}.${ticket.key.split('.').pop()}`))
      throw refused();
    if (ticket.expiresAt * 1000 <= (input.now ?? new Date()).getTime())
      throw refused('Upload ticket has expired: ask for a new one');
    if (input.contentType !== ticket.contentType)
      throw invalid(`Content-Type must be ${ticket.contentType}, as declared`, 'content-type');
    if (input.contentLength !== ticket.size)
      throw invalid(`Content-Length must be ${ticket.size}, the declared size`, 'content-length');
    switch (await this.quota.claim(ticket.key)) {
      case 'claimed':
        break;
      case 'used':
        throw new AppException(AppErrorCode.Conflict, { message: 'Upload ticket already used' });
      case 'suspended':
        throw new AppException(AppErrorCode.AccountSuspended);
      case 'unknown':
        // Signed, unexpired, but never counted (issued before quotas were kept): ask again.
        throw refused('Upload ticket is not valid or has expired: ask for a new one');
    }
    try {
      await this.store(input, ticket);
    } catch (error) {
      // The PUT's own refusal is the answer; should the release fail too, the ticket
      // stays taken and the client asks for a new one.
      await this.quota.release(ticket.key).catch(() => undefined);
      throw error;
    }
    await this.quota.stored(ticket.key);
    return { url: this.storage.urlFor(ticket.key) };
  }

  /** The body, checked as it streams; nothing is left behind when it fails. */
  private async store(input: ReceiveDirectUploadInput, ticket: UploadTicket): Promise<void> {
    const expected = formatOfKey(ticket.key);
    const { head, stream } = await peekStream(input.body, SNIFF_BYTES);
    const actual = sniffMediaFormat(head);
    if (!expected || actual?.contentType !== expected.contentType)
      throw invalid(
        `The file is not the declared type: ${expected?.name ?? ticket.contentType} declared, ${actual?.name ?? 'an unsupported format'} sent`,
        'file',
      );
    try {
      const stored = await this.storage.put(ticket.key, stream, {
        contentType: expected.contentType,
        maxBytes: ticket.size,
      });
      if (stored.size !== ticket.size) {
        await this.storage.delete([ticket.key]);
        throw invalid(`The body ended after ${stored.size} of ${ticket.size} bytes`, 'file');
      }
    } catch (error) {
      if (error instanceof ObjectTooLargeError)
        throw invalid(`The body is longer than the declared ${ticket.size} bytes`, 'file');
      throw error;
    }
  }
}
