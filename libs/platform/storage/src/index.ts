export * from './object-storage.types';
export * from './drivers/local-disk-storage.adapter';
export * from './storage.module';
export {
  InvalidObjectKeyError,
  isValidObjectKey,
  contentTypeFromKey,
} from './util/object-key.util';
export { SizeLimitStream } from './util/size-limit.stream';
export { parseByteRange } from './util/http-range.util';
export * from './drivers/s3-storage.adapter';
export * from './media/media-formats.util';
export * from './media/served-content.util';
export { peekStream } from './media/peek-stream.util';
export * from './use-cases/upload-file/upload-file.use-case';
export * from './use-cases/upload-quota.port';
export * from './media/media-fetcher.service';
export * from './use-cases/sweep-expired-uploads/sweep-expired-uploads.use-case';
export * from './use-cases/direct-upload/upload-ticket.util';
export * from './use-cases/direct-upload/issue-upload-ticket.use-case';
export * from './use-cases/direct-upload/receive-direct-upload.use-case';
export { promoteDirectUpload } from './use-cases/direct-upload/promote-direct-upload.util';
