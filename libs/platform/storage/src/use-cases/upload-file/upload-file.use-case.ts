import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { AppErrorCode, AppException, uploadQuotaExceededMessage } from '@genhub/errors';
import {
  MEDIA_LIMITS,
  SNIFF_BYTES,
  acceptedFormatsText,
  formatLimit,
  kindLabel,
  sniffMediaFormat,
} from '../../media/media-formats.util';
import { peekStream } from '../../media/peek-stream.util';
import { OBJECT_STORAGE, ObjectStorage, ObjectTooLargeError } from '../../object-storage.types';
import { UPLOAD_RETENTION_MS } from '../upload-retention.constants';
import { UPLOAD_QUOTA, type UploadHeadroom, type UploadQuota } from '../upload-quota.port';

/** One file part of a multipart request, as the transport hands it over. */
export interface UploadPart {
  fieldName: string;
  stream: Readable;
}

export interface UploadFileInput {
  accountId: string;
  /** The request's file parts in order (non-file fields already skipped). */
  files: AsyncIterable<UploadPart>;
  now?: Date;
}

export const UPLOAD_FIELD = 'file';
export const UPLOAD_PREFIX = 'uploads/';
export const MISSING_FILE_MESSAGE = `Missing file: send multipart/form-data with one file part named '${UPLOAD_FIELD}'`;
export const NOT_MULTIPART_MESSAGE = `Request must be multipart/form-data with one file part named '${UPLOAD_FIELD}'`;
export const SEVERAL_FILES_MESSAGE = `Only one file may be uploaded per request, in the part named '${UPLOAD_FIELD}'`;
export const UNSUPPORTED_TYPE_MESSAGE = `Unsupported file type. Accepted formats: ${acceptedFormatsText()}`;

/** A file stored by this request, not yet counted. */
interface StoredUpload {
  key: string;
  size: number;
}

/**
 * Streams one uploaded file to storage under
 * `uploads/{account}/{YYYY-MM-DD}/{uuid}.{ext}`: the format is sniffed from
 * the first bytes, the format's size limit is enforced while streaming, and
 * any refusal leaves nothing stored. The account's quotas (decision 0129) are
 * checked before the body is read (suspended, no uploads left today, stored
 * bytes full), bound the stream to what is left, and count the file once
 * stored, exactly: a file that parallel uploads leave no room for is removed.
 */
@Injectable()
export class UploadFileUseCase {
  constructor(
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(UPLOAD_QUOTA) private readonly quota: UploadQuota,
  ) {}

  async execute(input: UploadFileInput): Promise<{ url: string; key: string }> {
    const now = input.now ?? new Date();
    // Before the body is read: a refusal goes out at once (decision 0102).
    const headroom = await this.quota.headroom(input.accountId, now);
    let stored: StoredUpload | undefined;
    try {
      // Stops at the first refusal: the rest of the request is not read (the
      // answer goes out at once; the gateway drains the unread body, decision 0102).
      for await (const part of input.files) {
        if (stored) throw invalid(SEVERAL_FILES_MESSAGE);
        if (part.fieldName !== UPLOAD_FIELD) throw invalid(MISSING_FILE_MESSAGE);
        stored = await this.store(input.accountId, part.stream, now, headroom);
      }
      if (!stored) throw invalid(MISSING_FILE_MESSAGE);
      await this.quota.record({
        accountId: input.accountId,
        key: stored.key,
        bytes: stored.size,
        state: 'stored',
        now,
        expiresAt: new Date(now.getTime() + UPLOAD_RETENTION_MS),
      });
    } catch (error) {
      if (stored) await this.storage.delete([stored.key]);
      throw error;
    }
    return { key: stored.key, url: this.storage.urlFor(stored.key) };
  }

  private async store(
    accountId: string,
    source: Readable,
    now: Date,
    headroom: UploadHeadroom,
  ): Promise<StoredUpload> {
    const { head, stream } = await peekStream(source, SNIFF_BYTES);
    const format = sniffMediaFormat(head);
    if (!format) {
      throw invalid(UNSUPPORTED_TYPE_MESSAGE);
    }
    const formatMax = MEDIA_LIMITS[format.kind];
    const maxBytes = Math.min(formatMax, headroom.leftBytes);
    const key = `${UPLOAD_PREFIX}${accountId}/${now.toISOString().slice(0, 10)}/${randomUUID()}.${format.extension}`;
    try {
      const { size } = await this.storage.put(key, stream, {
        contentType: format.contentType,
        maxBytes,
      });
      return { key, size };
    } catch (error) {
      if (error instanceof ObjectTooLargeError && maxBytes < formatMax) {
        throw new AppException(AppErrorCode.UploadQuotaExceeded, {
          message: uploadQuotaExceededMessage(headroom.limitBytes, headroom.heldBytes, {
            leftBytes: headroom.leftBytes,
          }),
          fields: [UPLOAD_FIELD],
        });
      }
      if (error instanceof ObjectTooLargeError) {
        throw new AppException(AppErrorCode.PayloadTooLarge, {
          message: `File too large: ${format.name} files (${kindLabel(format.kind)}) may be at most ${formatLimit(formatMax)}`,
          fields: [UPLOAD_FIELD],
        });
      }
      throw error;
    }
  }
}

function invalid(message: string): AppException {
  return new AppException(AppErrorCode.InvalidRequest, { message, fields: [UPLOAD_FIELD] });
}
