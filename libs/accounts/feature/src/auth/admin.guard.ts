import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AdminConfig } from '@genhub/config';
import { AppErrorCode, AppException } from '@genhub/errors';

const BEARER = /^bearer +(\S+) *$/i;
const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The admin API: `Authorization: Bearer <ADMIN_TOKEN>`. With ADMIN_TOKEN unset
 * the admin API does not exist (404 Not found); a missing or wrong token is
 * 401. Tokens are compared in constant time (over digests, so the length does
 * not leak either).
 */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected?: Buffer;

  constructor(config: AdminConfig) {
    this.expected = config.ADMIN_TOKEN ? digest(config.ADMIN_TOKEN) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.expected) throw new AppException(AppErrorCode.NotFound);
    const header = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | undefined> }>().headers.authorization;
    if (header === undefined || header.trim() === '')
      throw new AppException(AppErrorCode.MissingAuthorization);
    const match = BEARER.exec(header.trim());
    if (!match) throw new AppException(AppErrorCode.InvalidAuthorizationFormat);
    if (!timingSafeEqual(digest(match[1]), this.expected))
      throw new AppException(AppErrorCode.InvalidApiKey, { message: 'Invalid admin token' });
    return true;
  }
}
