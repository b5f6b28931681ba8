import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ApiKeyAuthenticator } from './api-key-authenticator.service';
import { AuthenticatedAccount } from './authenticated-account.util';

interface AuthRequest {
  headers: Record<string, string | string[] | undefined>;
  account?: AuthenticatedAccount;
}

/**
 * Every public endpoint: `Authorization: Bearer <api_key>`. Refusals are the exact
 * 401/403 (docs/interface.md, "Authentication"): AppException codes; the filter
 * shapes the body.
 * Sets `request.account`, read by `@CurrentAccount()`.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly authenticator: ApiKeyAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthRequest>();
    request.account = await this.authenticator.authenticate(request.headers.authorization);
    return true;
  }
}
