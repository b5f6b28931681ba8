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
