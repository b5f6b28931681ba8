import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ClientConfig,
  _Object,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Agent as HttpsAgent } from 'node:https';
import { Readable, pipeline } from 'node:stream';
import {
  ObjectStorage,
  ObjectTooLargeError,
  DECLARED_SIZE_METADATA,
  PresignedPut,
  PresignPutOptions,
  PutOptions,
  StoredObject,
  StoredStream,
  resolveRange,
} from '../object-storage.types';
import {
  assertObjectKey,
  assertObjectPrefix,
  contentTypeFromKey,
  keyFromCdnUrl,
  urlForKey,
} from '../util/object-key.util';
import { SizeLimitStream } from '../util/size-limit.stream';
import { s3TlsError } from './s3-tls-error.util';
import {
  DOWNLOAD_CONTENT_TYPE,
  OBJECT_CACHE_CONTROL,
  storedContentType,
} from '../media/served-content.util';

export interface S3StorageOptions {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  cdnUrl: string;
  /** S3_TLS_CA: the CAs an https endpoint's certificate is verified against (the system's and a private one). */
  trustedCas?: string[];
  /** Multipart part size for streamed bodies (S3 minimum 5 MiB). */
  partSize?: number;
}

const PART_SIZE = 5 * 1024 * 1024;
const DELETE_BATCH = 1000;

/**
 * S3 (AWS, MinIO, any S3-compatible server). Streamed bodies go through
 * lib-storage's `Upload` (multipart above one part, two parts in flight at
 * most, so memory stays ~10 MiB per upload); the size limit is enforced on
 * the stream and an overflow aborts the upload.
 */
export class S3Storage implements ObjectStorage {
  readonly client: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    const config: S3ClientConfig = {
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      // Without these, S3-compatible servers (s3rver, older MinIO) may store the
      // aws-chunked framing of streamed bodies as the object itself.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
    // A private CA (S3_TLS_CA): the SDK's own Node handler, with an agent that trusts it too.
    if (options.trustedCas)
      config.requestHandler = {
        httpsAgent: new HttpsAgent({ keepAlive: true, ca: options.trustedCas }),
      };
    if (options.accessKeyId && options.secretAccessKey) {
      config.credentials = {
        accessKeyId: options.accessKeyId,
        secretAccessKey: options.secretAccessKey,
      };
    }
    this.client = new S3Client(config);
    // Every command (lib-storage's uploads too): a TLS failure in words, taken
    // where the request is sent (before the SDK's retries rewrap the error).
    this.client.middlewareStack.add(
      (next) => async (args) => {
        try {
          return await next(args);
        } catch (error) {
          throw s3TlsError(error, options.endpoint, !!options.trustedCas) ?? error;
        }
      },
      { step: 'deserialize', priority: 'low', name: 'tlsFailureInWords' },
    );
  }

  private get bucket(): string {
    return this.options.bucket;
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions): Promise<StoredObject> {
    assertObjectKey(key);
    const served = servedAs(options.contentType, options.cacheControl);
    if (Buffer.isBuffer(body)) {
      if (options.maxBytes !== undefined && body.length > options.maxBytes) {
        throw new ObjectTooLargeError(options.maxBytes);
      }
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentLength: body.length,
          ...served,
        }),
      );
      return { key, size: body.length, contentType: served.ContentType, lastModified: new Date() };
    }

    const startedAt = Date.now();
    const limiter = new SizeLimitStream(options.maxBytes);
    // Errors of the source (client went away) reach the limiter, which fails the upload.
    pipeline(body, limiter, () => undefined);
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: key,
        Body: limiter,
        ...served,
      },
      partSize: this.options.partSize ?? PART_SIZE,
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      await upload.abort().catch(() => undefined);
      await this.removeIfWrittenSince(key, startedAt);
      throw limiter.destroyed && limiter.errored ? limiter.errored : error;
    }
    return { key, size: limiter.bytes, contentType: served.ContentType, lastModified: new Date() };
  }

  async get(
    key: string,
    range?: { start: number; end?: number },
  ): Promise<StoredStream | undefined> {
    const object = await this.stat(key);
    if (!object) return undefined;
    const served = range ? resolveRange(range, object.size) : undefined;
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: served ? `bytes=${served.start}-${served.end}` : undefined,
        }),
      );
      return { ...object, body: out.Body as Readable, range: served };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    assertObjectKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        key,
        size: out.ContentLength ?? 0,
        contentType: out.ContentType ?? contentTypeFromKey(key),
        lastModified: out.LastModified,
        ...(out.Metadata && Object.keys(out.Metadata).length ? { metadata: out.Metadata } : {}),
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async delete(keys: string[]): Promise<void> {
    keys.forEach(assertObjectKey);
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const out = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = (out.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length) {
        throw new Error(
          `could not delete ${failed.length} object(s): ${failed[0].Code} ${failed[0].Message}`,
        );
      }
    }
  }

  async deletePrefix(prefix: string): Promise<number> {
    let deleted = 0;
    for await (const page of this.pages(prefix)) {
      const keys = page.map((o) => o.Key as string);
      await this.delete(keys);
      deleted += keys.length;
    }
    return deleted;
  }

  async *listOlderThan(prefix: string, before: Date): AsyncIterable<string> {
    for await (const page of this.pages(prefix)) {
      for (const object of page) {
        if (object.LastModified && object.LastModified < before) yield object.Key as string;
      }
    }
  }

  urlFor(key: string): string {
    return urlForKey(this.options.cdnUrl, key);
  }

  keyFromUrl(url: string): string | undefined {
    return keyFromCdnUrl(this.options.cdnUrl, url);
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  /**
   * A presigned PutObject whose signature binds the size, the type and the
   * declared-size metadata (all signed headers): a SigV4-checking bucket
   * refuses any other body. The bytes never pass through us.
   */
  async presignPut(key: string, options: PresignPutOptions): Promise<PresignedPut> {
    assertObjectKey(key);
    const metadata = { [DECLARED_SIZE_METADATA]: String(options.contentLength) };
    const url = await getSignedUrl(
      this.client,
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ContentType: options.contentType,
        ContentLength: options.contentLength,
        Metadata: metadata,
      }),
      {
        expiresIn: options.expiresInSeconds,
        signableHeaders: new Set([
          'content-type',
          'content-length',
          `x-amz-meta-${DECLARED_SIZE_METADATA}`,
        ]),
        // A header the client sends (and the signature covers), not a query parameter.
        unhoistableHeaders: new Set([`x-amz-meta-${DECLARED_SIZE_METADATA}`]),
      },
    );
    return {
      url,
      headers: {
        'Content-Type': options.contentType,
        [`x-amz-meta-${DECLARED_SIZE_METADATA}`]: metadata[DECLARED_SIZE_METADATA],
      },
    };
  }

  async copy(from: string, to: string, contentType: string): Promise<void> {
    assertObjectKey(from);
    assertObjectKey(to);
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.bucket,
        Key: to,
        CopySource: `${this.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`,
        ...servedAs(contentType),
        MetadataDirective: 'REPLACE',
      }),
    );
  }

  /** Pages of up to 1000 objects under a prefix (ListObjectsV2 with continuation tokens). */
  private async *pages(prefix: string): AsyncGenerator<_Object[]> {
    assertObjectPrefix(prefix);
    let token: string | undefined;
    do {
      const out = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix || undefined,
          ContinuationToken: token,
        }),
      );
      const contents = (out.Contents ?? []).filter((o) => o.Key);
      if (contents.length) yield contents;
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
  }

  /** After a failed put: delete the key only if an object was written by this put (never an older one). */
  private async removeIfWrittenSince(key: string, startedAt: number): Promise<void> {
    const object = await this.stat(key).catch(() => undefined);
    const written = object?.lastModified?.getTime() ?? 0;
    // LastModified has one-second precision.
    if (object && written >= Math.floor(startedAt / 1000) * 1000) {
      await this.delete([key]).catch(() => undefined);
    }
  }
}

/**
 * The headers an object is stored with, which the bucket (or a CDN in front of
 * it) serves as they are: a recognised media type or plain text inline, any
 * other type as an `application/octet-stream` attachment; a short cache
 * (decision 0128).
 */
function servedAs(
  contentType: string,
  cacheControl = OBJECT_CACHE_CONTROL,
): { ContentType: string; ContentDisposition?: string; CacheControl: string } {
  const stored = storedContentType(contentType);
  return stored === DOWNLOAD_CONTENT_TYPE
    ? { ContentType: stored, ContentDisposition: 'attachment', CacheControl: cacheControl }
    : { ContentType: stored, CacheControl: cacheControl };
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}
