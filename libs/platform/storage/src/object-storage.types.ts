import type { Readable } from 'node:stream';

/**
 * Object storage: one interface, two drivers (S3, local disk). Keys are
 * `uploads/{account}/{date}/{uuid}.{ext}` and `outputs/{prefix}/{task}/{n}.{ext}`
 * (ARCHITECTURE.md); every URL handed out starts with CDN_URL.
 */
export interface ObjectStorage {
  /**
   * Stores a body under `key`. A stream is never buffered whole; when it
   * exceeds `maxBytes` the write is aborted, nothing is left behind, and
   * `ObjectTooLargeError` is thrown.
   */
  put(key: string, body: Buffer | Readable, options: PutOptions): Promise<StoredObject>;
  /** Streams an object (optionally a byte range); undefined when it does not exist. */
  get(key: string, range?: { start: number; end?: number }): Promise<StoredStream | undefined>;
  stat(key: string): Promise<StoredObject | undefined>;
  /** Deletes objects; missing keys are not an error. */
  delete(keys: string[]): Promise<void>;
  /** Deletes every object under a key prefix (e.g. a task's output folder). */
  deletePrefix(prefix: string): Promise<number>;
  /** Objects under a prefix last modified before a time (retention sweeps). */
  listOlderThan(prefix: string, before: Date): AsyncIterable<string>;
  /** The public URL of a key: `${CDN_URL}/${key}`. */
  urlFor(key: string): string;
  /** The key of one of our own URLs, so media inputs are read from storage, not over HTTP. */
  keyFromUrl(url: string): string | undefined;
  /** Readiness: the backend answers. */
  check(): Promise<void>;
  /**
   * A signed, expiring URL that accepts one `PUT` of exactly `contentLength`
   * bytes of `contentType` to `key`, straight to the backend (S3 only: the
   * local driver has none, the gateway receives those uploads itself).
   */
  presignPut?(key: string, options: PresignPutOptions): Promise<PresignedPut>;
  /** Copies an object server-side, with a new content type (S3 only). */
  copy?(from: string, to: string, contentType: string): Promise<void>;
}

/** A presigned upload: the URL and the headers the client must send with its PUT. */
export interface PresignedPut {
  url: string;
  headers: Record<string, string>;
}

/** Metadata a presigned upload carries: the size its ticket declared (checked before use). */
export const DECLARED_SIZE_METADATA = 'declared-size';

export interface PresignPutOptions {
  contentType: string;
  contentLength: number;
  expiresInSeconds: number;
}

export interface PutOptions {
  contentType: string;
  maxBytes?: number;
  /** Default OBJECT_CACHE_CONTROL (five minutes: deleted files must stop being served). */
  cacheControl?: string;
}

export interface StoredObject {
  key: string;
  size: number;
  contentType: string;
  lastModified?: Date;
  /** User metadata (S3 `x-amz-meta-*`), where the backend keeps it. */
  metadata?: Record<string, string>;
}

export interface StoredStream extends StoredObject {
  body: Readable;
  /** Byte range served, when a range was asked for. */
  range?: { start: number; end: number };
}

export class ObjectTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`object exceeds ${maxBytes} bytes`);
    this.name = 'ObjectTooLargeError';
  }
}

/** Injection token of the configured driver. */
export const OBJECT_STORAGE = Symbol('OBJECT_STORAGE');

/** A byte range that does not overlap the object (HTTP 416). */
export class RangeNotSatisfiableError extends Error {
  constructor(readonly size: number) {
    super(`range not satisfiable for an object of ${size} bytes`);
    this.name = 'RangeNotSatisfiableError';
  }
}

/** Clamps a requested range to an object's size; throws when it cannot be served. */
export function resolveRange(
  range: { start: number; end?: number },
  size: number,
): { start: number; end: number } {
  const end = Math.min(range.end ?? size - 1, size - 1);
  if (!Number.isInteger(range.start) || range.start < 0 || range.start > end) {
    throw new RangeNotSatisfiableError(size);
  }
  return { start: range.start, end };
}
