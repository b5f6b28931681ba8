import { type ApiKeyScope, hasScope, modelAllowed } from '@genhub/contracts/server';
import {
  AppErrorCode,
  AppException,
  modelNotAllowedMessage,
  scopeNotAllowedMessage,
} from '@genhub/errors';
import type { AuthenticatedAccount } from './authenticated-account.util';

/** 403 scope_not_allowed, naming the scope, when the caller's key lacks it. */
export function assertScope(
  account: Pick<AuthenticatedAccount, 'apiKeyLimits'>,
  scope: ApiKeyScope,
): void {
  if (!hasScope(account.apiKeyLimits.scopes, scope))
    throw new AppException(AppErrorCode.ScopeNotAllowed, {
      message: scopeNotAllowedMessage(scope),
    });
}

/**
 * 403 model_not_allowed, naming the model, when it is outside the key's
 * `allowed_models`: checked before anything is reserved.
 */
export function assertModelAllowed(
  account: Pick<AuthenticatedAccount, 'apiKeyLimits'>,
  slug: string,
): void {
  if (!keyMayUse(account, slug))
    throw new AppException(AppErrorCode.ModelNotAllowed, { message: modelNotAllowedMessage(slug) });
}

/** Whether the caller's key may run `slug` (the model listings keep only these). */
export function keyMayUse(
  account: Pick<AuthenticatedAccount, 'apiKeyLimits'>,
  slug: string,
): boolean {
  return modelAllowed(account.apiKeyLimits.allowedModels, slug);
}
