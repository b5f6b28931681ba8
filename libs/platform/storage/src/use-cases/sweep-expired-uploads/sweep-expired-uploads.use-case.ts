import { Inject, Injectable } from '@nestjs/common';
import { OBJECT_STORAGE, ObjectStorage } from '../../object-storage.types';
import { INCOMING_PREFIX } from '../direct-upload/upload-ticket.util';
import { UPLOAD_PREFIX } from '../upload-file/upload-file.use-case';
import { UPLOAD_QUOTA, type UploadQuota } from '../upload-quota.port';
import { UPLOAD_RETENTION_MS } from '../upload-retention.constants';

export { UPLOAD_RETENTION_MS } from '../upload-retention.constants';
/** A direct upload never used (so never checked) is dropped after a day. */
export const INCOMING_RETENTION_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;

/**
 * Deletes every object under `uploads/` older than the retention period, and
 * unchecked direct uploads under `incoming/` older than a day; returns how many.
 * The quotas forget the expired uploads too (they stopped counting already).
 */
@Injectable()
export class SweepExpiredUploadsUseCase {
  constructor(
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(UPLOAD_QUOTA) private readonly quota: UploadQuota,
  ) {}

  async execute(now = new Date()): Promise<number> {
    const deleted =
      (await this.sweep(UPLOAD_PREFIX, new Date(now.getTime() - UPLOAD_RETENTION_MS))) +
      (await this.sweep(INCOMING_PREFIX, new Date(now.getTime() - INCOMING_RETENTION_MS)));
    await this.quota.forgetExpired(now);
    return deleted;
  }

  private async sweep(prefix: string, before: Date): Promise<number> {
    let batch: string[] = [];
    let deleted = 0;
    for await (const key of this.storage.listOlderThan(prefix, before)) {
      batch.push(key);
      if (batch.length === BATCH) {
        await this.storage.delete(batch);
        deleted += batch.length;
        batch = [];
      }
    }
    if (batch.length) await this.storage.delete(batch);
    return deleted + batch.length;
  }
}
