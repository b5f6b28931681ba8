import { Inject, Injectable } from '@nestjs/common';
import { filetypeinfo } from 'magic-bytes.js';
import { Agent, request } from 'undici';
import { SecurityConfig } from '@genhub/config';
import { checkOutboundUrl, guardedLookup } from '@genhub/outbound';
import { AdapterError, MediaInput, MediaKind } from '@genhub/providers';
import { OBJECT_STORAGE, ObjectStorage } from '@genhub/storage';
import { MediaFetcher } from '../ports/media-fetcher.port';

/** The upload limits (interface.md), applied to media inputs too (extensions.md §6). */
export const MEDIA_LIMITS: Record<MediaKind, number> = {
  image: 20 * 1024 * 1024,
  video: 100 * 1024 * 1024,
  audio: 50 * 1024 * 1024,
};
const DOWNLOAD_LIMIT = 200 * 1024 * 1024;
const TIMEOUT_MS = 30_000;

/**
 * Media inputs: our own CDN URLs are read from storage, others downloaded with
 * the private-network guard at connect time, a time limit, the size limit of
 * their kind, and a sniffed type that must match the kind. Failures → 1402.
 */
@Injectable()
export class HttpMediaFetcher implements MediaFetcher {
  private readonly agent: Agent;

  constructor(
    private readonly security: SecurityConfig,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
  ) {
    this.agent = new Agent({
      connect: { lookup: guardedLookup(security.ALLOW_PRIVATE_NETWORK_URLS), timeout: 10_000 },
    });
  }

  async fetch(url: string, kind: MediaKind): Promise<MediaInput> {
    const { data } = await this.load(url, MEDIA_LIMITS[kind]);
    const sniffed = filetypeinfo(new Uint8Array(data.subarray(0, 64)))[0];
    if (!sniffed?.mime?.startsWith(`${kind}/`))
      throw new AdapterError(1402, `not a supported ${kind} file`);
    return { data, contentType: sniffed.mime };
  }

  async download(url: string): Promise<MediaInput> {
    return this.load(url, DOWNLOAD_LIMIT);
  }

  private async load(url: string, maxBytes: number): Promise<MediaInput> {
    const key = this.storage.keyFromUrl(url);
    if (key) return this.fromStorage(key, maxBytes);
    const check = checkOutboundUrl(url, this.security.ALLOW_PRIVATE_NETWORK_URLS);
    if (!check.ok) throw new AdapterError(1402, `media URL ${check.reason}`);
    try {
      const res = await request(check.url, {
        dispatcher: this.agent,
        maxRedirections: 0,
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      } as Parameters<typeof request>[1]);
      if (res.statusCode < 200 || res.statusCode > 299) {
        await res.body.dump();
        throw new AdapterError(1402, `media URL answered HTTP ${res.statusCode}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          res.body.destroy();
          throw new AdapterError(1402, `media exceeds ${maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      const type = res.headers['content-type'];
      return {
        data: Buffer.concat(chunks),
        contentType: (Array.isArray(type) ? type[0] : type) ?? 'application/octet-stream',
      };
    } catch (error) {
      if (error instanceof AdapterError) throw error;
      throw new AdapterError(1402, (error as Error).message);
    }
  }

  private async fromStorage(key: string, maxBytes: number): Promise<MediaInput> {
    const object = await this.storage.get(key);
    if (!object) throw new AdapterError(1402, 'media file not found');
    if (object.size > maxBytes) {
      object.body.destroy();
      throw new AdapterError(1402, `media exceeds ${maxBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
    return { data: Buffer.concat(chunks), contentType: object.contentType };
  }
}
