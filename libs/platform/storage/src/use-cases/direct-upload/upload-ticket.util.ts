import { readToken, signToken } from '@genhub/config';
import { MEDIA_FORMATS, type MediaFormat } from '../../media/media-formats.util';

/** How long a direct-upload URL works. */
export const UPLOAD_TICKET_TTL_SECONDS = 15 * 60;

/** Where a direct upload waits to be checked when the bytes go straight to the bucket. */
export const INCOMING_PREFIX = 'incoming/';

/** The names clients give our formats (the WaveSpeed SDK's guesses included). */
const CONTENT_TYPE_ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/x-flac': 'audio/flac',
  'audio/mp3': 'audio/mpeg',
  'audio/x-m4a': 'audio/mp4',
};

const EXTENSION_ALIASES: Record<string, string> = { jpeg: 'jpg' };

/**
 * The accepted format a client declares, by its content type or else its
 * file name's extension; undefined when it is none of ours.
 */
export function declaredFormat(filename: string, contentType?: string): MediaFormat | undefined {
  if (contentType) {
    const type = contentType.split(';')[0].trim().toLowerCase();
    const canonical = CONTENT_TYPE_ALIASES[type] ?? type;
    return MEDIA_FORMATS.find((format) => format.contentType === canonical);
  }
  const dot = filename.lastIndexOf('.');
  if (dot < 0) return undefined;
  const extension = filename.slice(dot + 1).toLowerCase();
  const canonical = EXTENSION_ALIASES[extension] ?? extension;
  return MEDIA_FORMATS.find((format) => format.extension === canonical);
}

/** The format a stored upload's key stands for (its extension). */
export function formatOfKey(key: string): MediaFormat | undefined {
  const extension = key.slice(key.lastIndexOf('.') + 1);
  return MEDIA_FORMATS.find((format) => format.extension === extension);
}

/** What a local direct-upload URL allows: one PUT of `size` bytes of `contentType` to `key`. */
export interface UploadTicket {
  key: string;
  size: number;
  /** The content type the client declared (and must send). */
  contentType: string;
  /** Unix seconds. */
  expiresAt: number;
}

/** The purpose upload tickets are signed for (see signToken). */
const TICKET_PURPOSE = 'upload tickets';

/** A ticket as a URL-safe token: its fields and their HMAC, keyed by the deployment's secret. */
export function signTicket(ticket: UploadTicket, secret: string): string {
  return signToken(ticket, secret, TICKET_PURPOSE);
}

/** The ticket a token carries, or undefined when it was not signed with `secret` or is malformed. */
export function readTicket(token: string, secret: string): UploadTicket | undefined {
  const ticket = readToken(token, secret, TICKET_PURPOSE) as Partial<UploadTicket> | undefined;
  const valid =
    typeof ticket?.key === 'string' &&
    Number.isInteger(ticket.size) &&
    typeof ticket.contentType === 'string' &&
    Number.isInteger(ticket.expiresAt);
  return valid ? (ticket as UploadTicket) : undefined;
}
