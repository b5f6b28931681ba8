import { Agent, request } from 'undici';
import { Readable } from 'node:stream';
import { describeTlsFailure, tlsFailureOf } from '@genhub/config';
import { TaskCode } from '@genhub/errors';
import { checkOutboundUrl, guardedLookup } from '@genhub/outbound';
import { ObjectStorage, StoredStream } from '../object-storage.types';
import { promoteDirectUpload } from '../use-cases/direct-upload/promote-direct-upload.util';
import { UPLOAD_PREFIX } from '../use-cases/upload-file/upload-file.use-case';
import {
  MEDIA_LIMITS,
  MediaKind,
  acceptedFormatsText,
  formatLimit,
  sniffMediaFormat,
} from './media-formats.util';
import { recogniseContent } from './served-content.util';

/** Why a media input could not be used; the worker reports it as task code 1402. */
export class MediaFetchError extends Error {
  readonly code = TaskCode.MediaAccessFailed;

  constructor(message: string) {
    super(message);
    this.name = 'MediaFetchError';
  }
}

/** An output file of a model run (a video may be large); inputs obey the per-kind upload limits. */
export const OUTPUT_DOWNLOAD_LIMIT = 200 * 1024 * 1024;

export interface MediaFetcherOptions {
  storage: ObjectStorage;
  allowPrivateNetwork: boolean;
  timeoutMs?: number;
  maxRedirects?: number;
  /** OUTBOUND_TLS_CA: the CAs https media hosts are verified against (the system's and a private one); unset: the system's. */
  trustedCas?: string[];
}

export interface FetchedMedia {
  data: Buffer;
  contentType: string;
}

/**
 * Downloads a model's media input: our own CDN URLs straight from storage;
 * anything else over HTTP(S) with the private-network check (made at
 * connect time and on every redirect), a time limit, the kind's size limit
 * enforced while reading, and type sniffing (the content must be of `kind`).
 * Every failure is a MediaFetchError whose message says what went wrong.
 */
export class MediaFetcher {
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  private readonly maxRedirects: number;

  constructor(private readonly options: MediaFetcherOptions) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRedirects = options.maxRedirects ?? 3;
    this.agent = new Agent({
      connect: {
        lookup: guardedLookup(options.allowPrivateNetwork),
        timeout: this.timeoutMs,
        ...(options.trustedCas ? { ca: options.trustedCas } : {}),
      },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
  }

  async fetch(url: string, kind: MediaKind, signal?: AbortSignal): Promise<FetchedMedia> {
    const data = await this.load(url, MEDIA_LIMITS[kind], signal);
    const format = sniffMediaFormat(data);
    if (!format || format.kind !== kind) {
      throw new MediaFetchError(
        `Media at ${url} is not a supported ${kind} file (accepted: ${acceptedFormatsText([kind])})`,
      );
    }
    return { data, contentType: format.contentType };
  }

  /**
   * Downloads a model's output URL (an upstream's result file) so we can serve
   * it from our storage: the same guards, a larger limit, any content. Its type
   * is recognised from the bytes (a media format, plain text, else a download),
   * never taken from the server's Content-Type (decision 0128).
   */
  async download(url: string, signal?: AbortSignal): Promise<FetchedMedia> {
    const data = await this.load(url, OUTPUT_DOWNLOAD_LIMIT, signal);
    return { data, contentType: recogniseContent(data).contentType };
  }

  private load(url: string, limit: number, signal?: AbortSignal): Promise<Buffer> {
    const key = this.options.storage.keyFromUrl(url);
    return key ? this.fromStorage(key, limit) : this.overHttp(url, limit, signal);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** One of our objects; a presigned direct upload is checked and made usable on first use. */
  private async ownObject(key: string): Promise<StoredStream | undefined> {
    const storage = this.options.storage;
    const object = await storage.get(key).catch(() => undefined);
    if (object || !key.startsWith(UPLOAD_PREFIX)) return object;
    const promoted = await promoteDirectUpload(storage, key).catch(() => false);
    return promoted ? storage.get(key).catch(() => undefined) : undefined;
  }

  private async fromStorage(key: string, limit: number): Promise<Buffer> {
    const object = await this.ownObject(key);
    if (!object)
      throw new MediaFetchError(`Media file ${key} does not exist (it may have expired)`);
    if (object.size > limit) {
      discard(object.body);
      throw tooLarge(limit);
    }
    return readLimited(object.body, limit);
  }

  private async overHttp(raw: string, limit: number, signal?: AbortSignal): Promise<Buffer> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let current = raw;
    for (let hop = 0; ; hop++) {
      const check = checkOutboundUrl(current, this.options.allowPrivateNetwork);
      if (!check.ok) throw new MediaFetchError(`Media URL ${current} ${check.reason}`);
      let res;
      try {
        res = await request(check.url, { dispatcher: this.agent, method: 'GET', signal: combined });
      } catch (error) {
        throw new MediaFetchError(
          `Media URL ${current} could not be downloaded: ${describe(error, timeout)}`,
        );
      }
      if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
        discard(res.body);
        if (hop >= this.maxRedirects) {
          throw new MediaFetchError(
            `Media URL ${raw} redirected more than ${this.maxRedirects} times`,
          );
        }
        current = new URL(String(res.headers.location), check.url).toString();
        continue;
      }
      if (res.statusCode !== 200) {
        discard(res.body);
        throw new MediaFetchError(`Media URL ${current} answered HTTP ${res.statusCode}`);
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > limit) {
        discard(res.body);
        throw tooLarge(limit);
      }
      try {
        return await readLimited(res.body, limit);
      } catch (error) {
        if (error instanceof MediaFetchError) throw error;
        throw new MediaFetchError(
          `Media URL ${current} could not be downloaded: ${describe(error, timeout)}`,
        );
      }
    }
  }
}

function tooLarge(limit: number): MediaFetchError {
  return new MediaFetchError(`Media file is larger than the ${formatLimit(limit)} limit`);
}

async function readLimited(body: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      discard(body);
      throw tooLarge(limit);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function describe(error: unknown, timeout: AbortSignal): string {
  if (timeout.aborted) return 'timed out';
  const tls = tlsFailureOf(error);
  if (tls) return describeTlsFailure(tls);
  const e = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = e.code ?? e.cause?.code;
  if (code === 'EPRIVATEADDRESS' || e.cause?.code === 'EPRIVATEADDRESS') {
    return 'it points to a private network address';
  }
  return code ? `${code} ${e.cause?.message ?? e.message}` : e.message;
}

/** Drops a body we will not read (undici reports the abort as an error event). */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}
