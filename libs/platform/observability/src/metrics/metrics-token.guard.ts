import { CanActivate, ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { MetricsConfig } from '@genhub/config';
import { AppErrorCode, AppException } from '@genhub/errors';

const BEARER = /^bearer +(\S+) *$/i;
const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `/metrics` behind `Authorization: Bearer <METRICS_TOKEN>` where the app
 * loads MetricsConfig and the token is set (the gateway: its /metrics shares
 * the public port; required there in production). Elsewhere, or unset, the
 * scrape is open: the workers' port is a private management port (decision 0127).
 * Compared in constant time, over digests, like the admin token.
 */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  private readonly expected?: Buffer;

  constructor(@Optional() config?: MetricsConfig) {
    this.expected = config?.METRICS_TOKEN ? digest(config.METRICS_TOKEN) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.expected) return true;
    const header = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | undefined> }>().headers.authorization;
    if (header === undefined || header.trim() === '')
      throw new AppException(AppErrorCode.MissingAuthorization);
    const match = BEARER.exec(header.trim());
    if (!match) throw new AppException(AppErrorCode.InvalidAuthorizationFormat);
    if (!timingSafeEqual(digest(match[1]), this.expected))
      throw new AppException(AppErrorCode.InvalidApiKey, { message: 'Invalid metrics token' });
    return true;
  }
}
