import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AdminConfig, StaticToken } from '@genhub/config';
import { AppErrorCode, AppException, INVALID_ADMIN_TOKEN_MESSAGE } from '@genhub/errors';

/**
 * The admin API: `Authorization: Bearer <ADMIN_TOKEN>`. With ADMIN_TOKEN unset
 * the admin API does not exist (404 Not found); a missing or wrong token is
 * 401. Tokens are compared in constant time (over digests, so the length does
 * not leak either).
 */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly token?: StaticToken;

  constructor(config: AdminConfig) {
    this.token = config.ADMIN_TOKEN ? new StaticToken(config.ADMIN_TOKEN) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.token) throw new AppException(AppErrorCode.NotFound);
    const { headers } = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | undefined> }>();
    this.token.check(headers.authorization, INVALID_ADMIN_TOKEN_MESSAGE);
    return true;
  }
}
