import type { MediaInput, MediaKind } from '@genhub/providers';

/**
 * Downloads a media input with the platform's guards (time, size per kind,
 * private networks, content sniffing). Throws `AdapterError(TaskCode.MediaAccessFailed)`.
 */
export interface MediaFetcher {
  fetch(url: string, kind: MediaKind): Promise<MediaInput>;
  /** Downloads an adapter's output URL so it is served from our storage. */
  download(url: string): Promise<MediaInput>;
}

export const MEDIA_FETCHER = Symbol('MEDIA_FETCHER');
