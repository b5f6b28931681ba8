import type { ApiKeyChange, ApiKeyLimits } from '@genhub/accounts-data-access';
import type { CreateApiKeyDto, UpdateApiKeyDto } from '@genhub/contracts/server';
import { AppErrorCode, AppException } from '@genhub/errors';
import { toMicros } from '@genhub/money';

/**
 * A key's settings as the admin API, the CLI and `/api/v3/keys` send them
 * (validated DTO fields) → the stored form: the amount in micro-units, the
 * expiry a Date that must lie ahead. Absent stays absent (a PATCH keeps it),
 * null stays null (cleared).
 */
export function keyChangeFromDto(
  body: CreateApiKeyDto | UpdateApiKeyDto,
  now = new Date(),
): ApiKeyChange {
  const change: ApiKeyChange = {};
  if (body.name !== undefined) change.name = body.name;
  if (body.allowed_models !== undefined)
    change.allowedModels = body.allowed_models === null ? null : [...new Set(body.allowed_models)];
  if (body.scopes !== undefined) change.scopes = body.scopes;
  if (body.expires_at !== undefined)
    change.expiresAt = body.expires_at === null ? null : futureDate(body.expires_at, now);
  if (body.spend_limit !== undefined)
    change.spendLimit =
      body.spend_limit === null
        ? null
        : { amountUnits: spendUnits(body.spend_limit.amount), period: body.spend_limit.period };
  return change;
}

/** The limits of a new key from its settings: what is not given is no limit. */
export function limitsOfNewKey(change: ApiKeyChange): ApiKeyLimits {
  return {
    allowedModels: change.allowedModels ?? null,
    scopes: change.scopes ?? null,
    expiresAt: change.expiresAt ?? null,
    spendLimit: change.spendLimit ?? null,
  };
}

/** The limits a key will have once `change` applies to `current`. */
export function limitsAfter(current: ApiKeyLimits, change: ApiKeyChange): ApiKeyLimits {
  return {
    allowedModels:
      change.allowedModels === undefined ? current.allowedModels : change.allowedModels,
    scopes: change.scopes === undefined ? current.scopes : change.scopes,
    expiresAt: change.expiresAt === undefined ? current.expiresAt : change.expiresAt,
    spendLimit: change.spendLimit === undefined ? current.spendLimit : change.spendLimit,
  };
}

function futureDate(iso: string, now: Date): Date {
  const date = new Date(iso);
  assertFutureExpiry(date, now);
  return date;
}

/** 400 naming `expires_at` unless it lies ahead: a key is never issued or set already expired. */
export function assertFutureExpiry(expiresAt: Date | null | undefined, now = new Date()): void {
  if (expiresAt === null || expiresAt === undefined) return;
  if (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= now.getTime())
    throw new AppException(AppErrorCode.InvalidRequest, {
      message: 'Invalid request: expires_at must be in the future',
      fields: ['expires_at'],
    });
}

function spendUnits(amount: number): number {
  try {
    return toMicros(amount);
  } catch (error) {
    throw new AppException(AppErrorCode.InvalidRequest, {
      message: `Invalid request: spend_limit.amount ${(error as Error).message.replace(/^amount /, '')}`,
      fields: ['spend_limit.amount'],
    });
  }
}
