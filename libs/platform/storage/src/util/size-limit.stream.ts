import { Transform, TransformCallback } from 'node:stream';
import { ObjectTooLargeError } from '../object-storage.types';

/**
 * Counts bytes as they pass and fails the stream with ObjectTooLargeError
 * the moment the count passes `maxBytes`, so an oversized body is refused
 * while streaming, never after being stored whole.
 */
export class SizeLimitStream extends Transform {
  bytes = 0;

  constructor(private readonly maxBytes = Number.POSITIVE_INFINITY) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return callback(new ObjectTooLargeError(this.maxBytes));
    callback(null, chunk);
  }
}
