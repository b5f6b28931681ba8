import { createHash, timingSafeEqual } from 'node:crypto';
import { AppErrorCode, AppException } from '@genhub/errors';

const BEARER = /^bearer +(\S+) *$/i;
const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * A token fixed by configuration (ADMIN_TOKEN, METRICS_TOKEN), compared in
 * constant time over digests, so neither its content nor its length leaks.
 */
export class StaticToken {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digest(token);
  }

  /** Whether `given` is the token. */
  matches(given: string | undefined): boolean {
    return given !== undefined && timingSafeEqual(digest(given), this.expected);
  }

  /**
   * Accepts an `Authorization: Bearer <token>` header holding the token; throws
   * the interface's refusals otherwise (missing, malformed), or 401 with
   * `wrongMessage` for another token.
   */
  check(header: string | undefined, wrongMessage: string): void {
    if (header === undefined || header.trim() === '')
      throw new AppException(AppErrorCode.MissingAuthorization);
    const match = BEARER.exec(header.trim());
    if (!match) throw new AppException(AppErrorCode.InvalidAuthorizationFormat);
    if (!this.matches(match[1]))
      throw new AppException(AppErrorCode.InvalidApiKey, { message: wrongMessage });
  }
}
