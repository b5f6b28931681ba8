import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { AppErrorCode, AppException } from '@genhub/errors';
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

/**
 * Streams one uploaded file to storage under
 * `uploads/{account}/{YYYY-MM-DD}/{uuid}.{ext}`: the format is sniffed from
 * the first bytes, the format's size limit is enforced while streaming, and
 * any refusal leaves nothing stored.
 */
@Injectable()
export class UploadFileUseCase {
  constructor(@Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage) {}

  async execute(input: UploadFileInput): Promise<{ url: string; key: string }> {
    let storedKey: string | undefined;
    try {
      // Stops at the first refusal: the rest of the request is not read (the
      // answer goes out at once; the gateway drains the unread body, decision 0102).
      for await (const part of input.files) {
        if (storedKey) throw invalid(SEVERAL_FILES_MESSAGE);
        if (part.fieldName !== UPLOAD_FIELD) throw invalid(MISSING_FILE_MESSAGE);
        storedKey = await this.store(input.accountId, part.stream, input.now ?? new Date());
      }
    } catch (error) {
      if (storedKey) await this.storage.delete([storedKey]);
      throw error;
    }
    if (!storedKey) throw invalid(MISSING_FILE_MESSAGE);
    return { key: storedKey, url: this.storage.urlFor(storedKey) };
  }

  private async store(accountId: string, source: Readable, now: Date): Promise<string> {
    const { head, stream } = await peekStream(source, SNIFF_BYTES);
    const format = sniffMediaFormat(head);
    if (!format) {
      throw invalid(UNSUPPORTED_TYPE_MESSAGE);
    }
    const maxBytes = MEDIA_LIMITS[format.kind];
    const key = `${UPLOAD_PREFIX}${accountId}/${now.toISOString().slice(0, 10)}/${randomUUID()}.${format.extension}`;
    try {
      await this.storage.put(key, stream, { contentType: format.contentType, maxBytes });
    } catch (error) {
      if (error instanceof ObjectTooLargeError) {
        throw new AppException(AppErrorCode.PayloadTooLarge, {
          message: `File too large: ${format.name} files (${kindLabel(format.kind)}) may be at most ${formatLimit(maxBytes)}`,
          fields: [UPLOAD_FIELD],
        });
      }
      throw error;
    }
    return key;
  }
}

function invalid(message: string): AppException {
  return new AppException(AppErrorCode.InvalidRequest, { message, fields: [UPLOAD_FIELD] });
}
