import { Injectable } from '@nestjs/common';
import { AdapterError, MediaInput, MediaKind } from '@genhub/providers';
import { MediaFetchError, MediaFetcher as GuardedMediaFetcher } from '@genhub/storage';
import { MediaFetcher } from './media-fetcher.port';

/**
 * The worker's media port over the storage lib's guarded fetcher (own-CDN
 * reads, private-network guard on every hop, per-kind limits, sniffing). Its
 * failures become `AdapterError(TaskCode.MediaAccessFailed)` with the fetcher's explanation, so the
 * task's `error` says what was wrong with the URL.
 */
@Injectable()
export class StorageMediaFetcher implements MediaFetcher {
  constructor(private readonly fetcher: GuardedMediaFetcher) {}

  fetch(url: string, kind: MediaKind): Promise<MediaInput> {
    return this.fetcher.fetch(url, kind).catch(toAdapterError);
  }

  download(url: string): Promise<MediaInput> {
    return this.fetcher.download(url).catch(toAdapterError);
  }
}

function toAdapterError(error: unknown): never {
  if (error instanceof MediaFetchError) throw new AdapterError(error.code, error.message);
  throw error;
}
