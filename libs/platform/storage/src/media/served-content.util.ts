import { isUtf8 } from 'node:buffer';
import { filetypeinfo } from 'magic-bytes.js';
import { MEDIA_FORMATS, SNIFF_BYTES, sniffMediaFormat } from './media-formats.util';

/**
 * What a stored file may be served as (decision 0128). A file is shown in the
 * browser ("inline") only when its bytes were recognised as one of the media
 * formats below or as UTF-8 text (shown as plain text, never rendered);
 * anything else is a download. The type an upstream or a `data:` URL declares
 * is never trusted: HTML, SVG or script bytes on our origin would run with the
 * console's access to its keys.
 */

/** Plain text: UTF-8 with no NUL byte; served as this type, never as HTML. */
export const TEXT_CONTENT_TYPE = 'text/plain; charset=utf-8';

/** Anything not recognised: a download. */
export const DOWNLOAD_CONTENT_TYPE = 'application/octet-stream';

/**
 * Cache-Control of every stored file (uploads and outputs): a CDN or browser
 * keeps a deleted output or an expired upload at most five minutes.
 */
export const OBJECT_CACHE_CONTROL = 'public, max-age=300';

/** Formats recognised in outputs besides the upload formats (upstream speech: Opus, AAC). */
const OUTPUT_ONLY_FORMATS: Record<string, RecognisedContent> = {
  ogx: { contentType: 'audio/ogg', extension: 'ogg' },
  aac: { contentType: 'audio/aac', extension: 'aac' },
};

/** The types served inline (with the text type): images, audio, video recognised from their bytes. */
export const INLINE_MEDIA_TYPES: ReadonlySet<string> = new Set([
  ...MEDIA_FORMATS.map((format) => format.contentType),
  ...Object.values(OUTPUT_ONLY_FORMATS).map((format) => format.contentType),
]);

export interface RecognisedContent {
  contentType: string;
  extension: string;
}

/**
 * The type of a file from its bytes alone: a media format (PNG, JPEG, WebP,
 * GIF, MP4, WebM, MOV, MP3, WAV, FLAC, M4A, Ogg, AAC), else plain text when
 * the bytes are UTF-8 without NUL, else a download (`bin`).
 */
export function recogniseContent(data: Buffer): RecognisedContent {
  const head = data.subarray(0, SNIFF_BYTES);
  const media = sniffMediaFormat(head);
  if (media) return { contentType: media.contentType, extension: media.extension };
  if (head.length >= 4) {
    for (const type of filetypeinfo(head)) {
      const known = OUTPUT_ONLY_FORMATS[type.typename];
      if (known) return known;
    }
  }
  if (!data.includes(0) && isUtf8(data))
    return { contentType: TEXT_CONTENT_TYPE, extension: 'txt' };
  return { contentType: DOWNLOAD_CONTENT_TYPE, extension: 'bin' };
}

/**
 * The type a stored file is served inline as, or undefined when it must be
 * a download: whatever was stored (an old object, another writer), only the
 * recognised media types and plain text are shown.
 */
export function inlineContentType(storedType: string): string | undefined {
  const base = storedType.split(';')[0].trim().toLowerCase();
  if (INLINE_MEDIA_TYPES.has(base)) return base;
  if (base === 'text/plain') return TEXT_CONTENT_TYPE;
  return undefined;
}

/**
 * The type a driver stores a file with: the inline type when `contentType` is
 * one, else `application/octet-stream`. With S3 the bucket serves it as
 * stored, so nothing a caller declares can make it serve HTML.
 */
export function storedContentType(contentType: string): string {
  return inlineContentType(contentType) ?? DOWNLOAD_CONTENT_TYPE;
}

/** Plain-text extensions an output may keep from its URL (a transcript's `.srt`, a `.json`). */
const TEXT_EXTENSIONS = new Set(['txt', 'json', 'srt', 'vtt', 'csv', 'md']);

/**
 * The file extension of a stored file of a recognised type: the media
 * format's, `txt` for text (or `preferred` when it is a plain-text extension
 * such as `json` or `srt`), `bin` for a download.
 */
export function extensionForType(contentType: string, preferred?: string): string {
  if (contentType === TEXT_CONTENT_TYPE) {
    const wanted = preferred?.toLowerCase();
    return wanted && TEXT_EXTENSIONS.has(wanted) ? wanted : 'txt';
  }
  const media =
    MEDIA_FORMATS.find((format) => format.contentType === contentType) ??
    Object.values(OUTPUT_ONLY_FORMATS).find((format) => format.contentType === contentType);
  return media?.extension ?? 'bin';
}
