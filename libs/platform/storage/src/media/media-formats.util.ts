import { filetypeinfo } from 'magic-bytes.js';

export type MediaKind = 'image' | 'video' | 'audio';

export interface MediaFormat {
  /** Name shown in messages: PNG, JPEG, … */
  name: string;
  kind: MediaKind;
  contentType: string;
  extension: string;
}

/** 1 MB = 1,048,576 bytes. */
export const MB = 1024 * 1024;

/**
 * Per-kind size limits of uploads and media inputs (docs/interface.md, "Upload file" and
 * "Media inputs").
 */
export const MEDIA_LIMITS: Record<MediaKind, number> = {
  image: 20 * MB,
  video: 100 * MB,
  audio: 50 * MB,
};

const FORMATS = {
  png: { name: 'PNG', kind: 'image', contentType: 'image/png', extension: 'png' },
  jpeg: { name: 'JPEG', kind: 'image', contentType: 'image/jpeg', extension: 'jpg' },
  webp: { name: 'WebP', kind: 'image', contentType: 'image/webp', extension: 'webp' },
  gif: { name: 'GIF', kind: 'image', contentType: 'image/gif', extension: 'gif' },
  mp4: { name: 'MP4', kind: 'video', contentType: 'video/mp4', extension: 'mp4' },
  webm: { name: 'WebM', kind: 'video', contentType: 'video/webm', extension: 'webm' },
  mov: { name: 'MOV', kind: 'video', contentType: 'video/quicktime', extension: 'mov' },
  mp3: { name: 'MP3', kind: 'audio', contentType: 'audio/mpeg', extension: 'mp3' },
  wav: { name: 'WAV', kind: 'audio', contentType: 'audio/wav', extension: 'wav' },
  flac: { name: 'FLAC', kind: 'audio', contentType: 'audio/flac', extension: 'flac' },
  m4a: { name: 'M4A', kind: 'audio', contentType: 'audio/mp4', extension: 'm4a' },
} as const satisfies Record<string, MediaFormat>;

export const MEDIA_FORMATS: readonly MediaFormat[] = Object.values(FORMATS);

/** How many leading bytes the sniffer wants (fewer is fine for tiny files). */
export const SNIFF_BYTES = 4096;

const KIND_LABEL: Record<MediaKind, string> = { image: 'images', video: 'videos', audio: 'audio' };

export function formatLimit(bytes: number): string {
  return `${bytes / MB} MB`;
}

/** "PNG, JPEG, WebP, GIF (images, up to 20 MB); MP4, …" */
export function acceptedFormatsText(kinds: MediaKind[] = ['image', 'video', 'audio']): string {
  return kinds
    .map(
      (kind) =>
        `${MEDIA_FORMATS.filter((f) => f.kind === kind)
          .map((f) => f.name)
          .join(', ')} (${KIND_LABEL[kind]}, up to ${formatLimit(MEDIA_LIMITS[kind])})`,
    )
    .join('; ');
}

export function kindLabel(kind: MediaKind): string {
  return KIND_LABEL[kind];
}

/**
 * Decides the format from the content's first bytes (never from a name or a
 * declared type). magic-bytes.js names the family; the ISO-BMFF brand
 * (MP4/MOV/M4A) and the EBML DocType (WebM, not other Matroska) are read here.
 */
export function sniffMediaFormat(head: Buffer): MediaFormat | undefined {
  if (head.length < 4) return undefined;
  const names = new Set(filetypeinfo(head.subarray(0, SNIFF_BYTES)).map((t) => t.typename));
  if (names.has('png')) return FORMATS.png;
  if (names.has('jpg')) return FORMATS.jpeg;
  if (names.has('gif')) return FORMATS.gif;
  if (names.has('webp')) return FORMATS.webp;
  if (names.has('wav')) return FORMATS.wav;
  if (names.has('flac')) return FORMATS.flac;
  if (names.has('mp3')) return FORMATS.mp3;
  if (head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp') {
    const brand = head.toString('latin1', 8, 12);
    if (brand === 'M4A ' || brand === 'M4B ') return FORMATS.m4a;
    if (brand === 'qt  ') return FORMATS.mov;
    return FORMATS.mp4;
  }
  if (head.readUInt32BE(0) === 0x1a45dfa3) {
    // EBML: accept only DocType "webm" (element 0x4282) inside the header.
    const docType = head.indexOf(Buffer.from([0x42, 0x82]));
    if (docType !== -1 && head.subarray(docType, docType + 16).includes('webm'))
      return FORMATS.webm;
    return undefined;
  }
  return undefined;
}
