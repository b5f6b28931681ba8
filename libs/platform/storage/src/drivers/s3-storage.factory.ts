import { StorageConfig, trustedCas } from '@genhub/config';
import { ObjectStorage } from '../object-storage.types';
import { S3Storage } from './s3-storage.adapter';

export function createS3Storage(config: StorageConfig): ObjectStorage {
  return new S3Storage({
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    bucket: config.S3_BUCKET as string,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    cdnUrl: config.cdnUrl,
    trustedCas: trustedCas(config.S3_TLS_CA),
  });
}
