import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PepperConfig } from '@genhub/config';
import { AppErrorCode, AppException } from '@genhub/errors';
import { formatLimit, kindLabel, MEDIA_LIMITS } from '../../media/media-formats.util';
import { OBJECT_STORAGE, ObjectStorage } from '../../object-storage.types';
import { UNSUPPORTED_TYPE_MESSAGE, UPLOAD_PREFIX } from '../upload-file/upload-file.use-case';
import { UPLOAD_QUOTA, type UploadQuota } from '../upload-quota.port';
import { UPLOAD_RETENTION_MS } from '../upload-retention.constants';
import {
  declaredFormat,
  INCOMING_PREFIX,
  signTicket,
  UPLOAD_TICKET_TTL_SECONDS,
} from './upload-ticket.util';

export interface IssueUploadTicketInput {
  accountId: string;
  filename: string;
  size: number;
  contentType?: string;
  /** Origin of the gateway the client called: local uploads are PUT back to it. */
  gatewayOrigin: string;
  now?: Date;
}

export interface UploadTicketAnswer {
  download_url: string;
  upload: { url: string; method: 'PUT'; headers: Record<string, string> };
  expires_at: string;
}

/**
 * A direct upload's ticket: the declared type must be an accepted format and
 * the declared size within its limit, then one signed `PUT` URL that expires:
 * presigned to the bucket (the bytes never pass through the gateway; they
 * land under `incoming/` and are checked before first use), or, on local
 * disk, a signed gateway route that checks them as they arrive. The ticket
 * counts against the account's quotas at its declared size, from now on
 * (decision 0129), and its row makes it single-use.
 */
@Injectable()
export class IssueUploadTicketUseCase {
  constructor(
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly security: PepperConfig,
    @Inject(UPLOAD_QUOTA) private readonly quota: UploadQuota,
  ) {}

  async execute(input: IssueUploadTicketInput): Promise<UploadTicketAnswer> {
    const format = declaredFormat(input.filename, input.contentType);
    if (!format)
      throw new AppException(AppErrorCode.InvalidRequest, {
        message: UNSUPPORTED_TYPE_MESSAGE,
        fields: [input.contentType ? 'content_type' : 'filename'],
      });
    const limit = MEDIA_LIMITS[format.kind];
    if (input.size > limit)
      throw new AppException(AppErrorCode.PayloadTooLarge, {
        message: `File too large: ${format.name} files (${kindLabel(format.kind)}) may be at most ${formatLimit(limit)}`,
        fields: ['size'],
      });
    const now = input.now ?? new Date();
    const id = randomUUID();
    const key = `${UPLOAD_PREFIX}${input.accountId}/${now.toISOString().slice(0, 10)}/${id}.${format.extension}`;
    const contentType = input.contentType ?? format.contentType;
    const expiresAt = Math.floor(now.getTime() / 1000) + UPLOAD_TICKET_TTL_SECONDS;
    await this.quota.record({
      accountId: input.accountId,
      key,
      bytes: input.size,
      state: 'ticketed',
      now,
      expiresAt: new Date(now.getTime() + UPLOAD_RETENTION_MS),
    });
    const { url, headers } = this.storage.presignPut
      ? await this.storage.presignPut(`${INCOMING_PREFIX}${key}`, {
          contentType,
          contentLength: input.size,
          expiresInSeconds: UPLOAD_TICKET_TTL_SECONDS,
        })
      : {
          url: `${input.gatewayOrigin}/api/v3/media/uploads/${id}?ticket=${signTicket(
            { key, size: input.size, contentType, expiresAt },
            this.security.API_KEY_PEPPER,
          )}`,
          headers: { 'Content-Type': contentType },
        };
    return {
      download_url: this.storage.urlFor(key),
      upload: { url, method: 'PUT', headers },
      expires_at: new Date(expiresAt * 1000).toISOString(),
    };
  }
}
