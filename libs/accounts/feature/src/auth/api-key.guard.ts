import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiKeyAuthenticator } from './api-key-authenticator.service';
import { AuthenticatedAccount } from './authenticated-account.util';
import { assertScope } from './key-limits.util';
import { API_KEY_SCOPE_METADATA, NO_SCOPE, type RouteScope } from './requires-scope.decorator';

interface AuthRequest {
  headers: Record<string, string | string[] | undefined>;
  account?: AuthenticatedAccount;
}

/**
 * Every public endpoint: `Authorization: Bearer <api_key>`. Refusals are the exact
 * 401/403 (docs/interface.md, "Authentication"): AppException codes; the filter
 * shapes the body. Then the key's scope for the route (`@RequiresScope`, issue
 * 37): missing, 403 scope_not_allowed.
 * Sets `request.account`, read by `@CurrentAccount()`.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthRequest>();
    const account = await this.authenticator.authenticate(request.headers.authorization);
    request.account = account;
    const scope = this.reflector.getAllAndOverride<RouteScope | undefined>(API_KEY_SCOPE_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (scope !== undefined && scope !== NO_SCOPE) assertScope(account, scope);
    return true;
  }
}
