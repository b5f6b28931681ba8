import { Inject, Injectable } from '@nestjs/common';
import { OBJECT_STORAGE, ObjectStorage } from '../../object-storage.types';
import { UPLOAD_PREFIX } from '../upload-file/upload-file.use-case';

/** Uploads expire 7 days after they were written. */
export const UPLOAD_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const BATCH = 500;

/** Deletes every object under `uploads/` older than the retention period; returns how many. */
@Injectable()
export class SweepExpiredUploadsUseCase {
  constructor(@Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage) {}

  async execute(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - UPLOAD_RETENTION_MS);
    let batch: string[] = [];
    let deleted = 0;
    for await (const key of this.storage.listOlderThan(UPLOAD_PREFIX, before)) {
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
