import type { ApiKeyLimits } from '@genhub/accounts-data-access';
import { API_KEY_SCOPES, hasScope, modelAllowed } from '@genhub/contracts/server';
import { AppErrorCode, AppException, keyWiderThanCallerMessage } from '@genhub/errors';
import { fromMicros } from '@genhub/money';

/**
 * Why a key with `limits` would be wider than the key `caller` that asks for
 * it (`/api/v3/keys`, issue 37), or null when it is not: every setting must be
 * at most the caller's own.
 *
 * - scopes: each of the new key's (absent: all) is one the caller has;
 * - allowed_models: with a list of its own, the caller's patterns must cover
 *   each new pattern read as a slug: a `*` in the new pattern can then only be
 *   matched by a `*` of the caller's, so what it admits the caller admits;
 * - spend_limit: with one of its own, the caller's period and at most its amount;
 * - expires_at: with one of its own, no later than the caller's.
 */
export function widerThanCaller(caller: ApiKeyLimits, limits: ApiKeyLimits): string | null {
  const extraScopes = (limits.scopes ?? API_KEY_SCOPES).filter(
    (scope) => !hasScope(caller.scopes, scope),
  );
  if (extraScopes.length) return `the scopes ${extraScopes.join(', ')} are not the caller's`;

  if (caller.allowedModels !== null) {
    if (limits.allowedModels === null)
      return `allowed_models must be within the caller's (${caller.allowedModels.join(', ')})`;
    const uncovered = limits.allowedModels.filter(
      (pattern) => !modelAllowed(caller.allowedModels, pattern),
    );
    if (uncovered.length)
      return `allowed_models ${uncovered.join(', ')} are outside the caller's (${caller.allowedModels.join(', ')})`;
  }

  const callerLimit = caller.spendLimit;
  if (callerLimit !== null) {
    const limit = limits.spendLimit;
    if (
      limit === null ||
      limit.period !== callerLimit.period ||
      limit.amountUnits > callerLimit.amountUnits
    )
      return `spend_limit must be per ${callerLimit.period} and at most ${fromMicros(callerLimit.amountUnits)}, the caller's`;
  }

  if (caller.expiresAt !== null) {
    const expiresAt = limits.expiresAt;
    if (expiresAt === null || expiresAt.getTime() > caller.expiresAt.getTime())
      return `expires_at must be no later than the caller's (${caller.expiresAt.toISOString()})`;
  }
  return null;
}

/** Refuses (403 key_wider_than_caller, naming the setting) a key wider than its caller. */
export function assertWithinCaller(caller: ApiKeyLimits, limits: ApiKeyLimits): void {
  const reason = widerThanCaller(caller, limits);
  if (reason !== null)
    throw new AppException(AppErrorCode.KeyWiderThanCaller, {
      message: keyWiderThanCallerMessage(reason),
    });
}
