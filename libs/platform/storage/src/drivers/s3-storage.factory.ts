import { StorageConfig } from '@genhub/config';
import { ObjectStorage } from '../object-storage';

/** Placeholder until the S3 driver lands (issue 7, step 3). */
export function createS3Storage(_config: StorageConfig): ObjectStorage {
  throw new Error('S3 storage driver is not available yet: unset S3_ENDPOINT to use local disk');
}
