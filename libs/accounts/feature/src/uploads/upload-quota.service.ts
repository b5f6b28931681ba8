import { Injectable } from '@nestjs/common';
import {
  RecordRefusal,
  UploadLimits,
  uploadRefusal,
  UploadRepository,
  UploadUsage,
} from '@genhub/accounts-data-access';
import { UploadQuotaConfig } from '@genhub/config';
import {
  AppErrorCode,
  AppException,
  uploadDailyLimitMessage,
  uploadQuotaExceededMessage,
} from '@genhub/errors';
import type { CountedUpload, TicketClaim, UploadHeadroom, UploadQuota } from '@genhub/storage';

/**
 * The per-account upload quotas (decision 0129), bound by the gateway as the
 * storage lib's `UPLOAD_QUOTA` port: the bytes an account's unexpired uploads
 * may hold (`UPLOAD_QUOTA_BYTES`) and the uploads it may make per UTC day
 * (`UPLOAD_QUOTA_PER_DAY`), 0 for none; suspended accounts upload nothing.
 * Storage quotas, not task limits: tasks have neither rate limits nor caps.
 */
@Injectable()
export class UploadQuotaService implements UploadQuota {
  constructor(
    private readonly uploads: UploadRepository,
    private readonly config: UploadQuotaConfig,
  ) {}

  private get limits(): UploadLimits {
    return {
      maxBytes: this.config.UPLOAD_QUOTA_BYTES,
      maxPerDay: this.config.UPLOAD_QUOTA_PER_DAY,
    };
  }

  async headroom(accountId: string, now: Date): Promise<UploadHeadroom> {
    const usage = await this.uploads.usage(accountId, now);
    // A file of at least one byte must fit: a full quota refuses before the body is read.
    const refusal = uploadRefusal(usage, 1, this.limits);
    if (refusal) throw this.refusal(refusal, usage);
    const { maxBytes } = this.limits;
    return {
      leftBytes: maxBytes > 0 ? maxBytes - usage.heldBytes : Infinity,
      limitBytes: maxBytes,
      heldBytes: usage.heldBytes,
    };
  }

  async record(upload: CountedUpload): Promise<void> {
    const outcome = await this.uploads.record(upload, this.limits);
    if (!outcome.recorded) throw this.refusal(outcome.refusal, outcome.usage, upload.bytes);
  }

  claim(key: string): Promise<TicketClaim> {
    return this.uploads.claim(key);
  }

  release(key: string): Promise<void> {
    return this.uploads.release(key);
  }

  stored(key: string): Promise<void> {
    return this.uploads.markStored(key);
  }

  forgetExpired(now: Date): Promise<number> {
    return this.uploads.deleteExpired(now);
  }

  private refusal(refusal: RecordRefusal, usage: UploadUsage, bytes?: number): AppException {
    switch (refusal) {
      case 'unknown-account':
        return new AppException(AppErrorCode.InvalidApiKey);
      case 'suspended':
        return new AppException(AppErrorCode.AccountSuspended);
      case 'daily':
        return new AppException(AppErrorCode.UploadDailyLimitReached, {
          message: uploadDailyLimitMessage(this.limits.maxPerDay),
        });
      case 'bytes':
        return new AppException(AppErrorCode.UploadQuotaExceeded, {
          message: uploadQuotaExceededMessage(
            this.limits.maxBytes,
            usage.heldBytes,
            bytes === undefined ? undefined : { bytes },
          ),
        });
    }
  }
}
