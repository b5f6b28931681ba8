export * from './object-storage';
export * from './drivers/local-disk.storage';
export * from './storage.module';
export {
  InvalidObjectKeyError,
  isValidObjectKey,
  contentTypeFromKey,
} from './util/object-key.util';
export { SizeLimitStream } from './util/size-limit.util';
export { parseByteRange } from './util/http-range.util';
export * from './drivers/s3.storage';
export * from './media/media-formats';
export { peekStream } from './media/peek-stream.util';
export * from './use-cases/upload-file/upload-file.use-case';
export * from './media/media-fetcher';
export * from './use-cases/sweep-expired-uploads/sweep-expired-uploads.use-case';
