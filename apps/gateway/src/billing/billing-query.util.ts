import type { BillingRecordTypeFilter } from '@genhub/billing-feature';
import type { RawQuery } from '@genhub/contracts/server';
import { AppErrorCode, AppException } from '@genhub/errors';

/** A raw query with the given fields (see `RawQuery`): parsed here by hand, at no class cost. */
type Query<Field extends string> = RawQuery<Record<Field, unknown>>;

function bad(field: string, message: string): AppException {
  return new AppException(AppErrorCode.InvalidRequest, { message, fields: [field] });
}

/** An optional query string value; a repeated parameter (`?a=1&a=2`) is a 400. */
export function optionalString<F extends string>(query: Query<F>, field: F): string | undefined {
  const value = query[field];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw bad(field, `${field} must be given once`);
  return value;
}

/** An optional positive integer written in decimal digits only (`1e3`, `2.0`, `-1` are 400s). */
export function optionalInt<F extends string>(query: Query<F>, field: F): number | undefined {
  const value = optionalString(query, field);
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value)) throw bad(field, `${field} must be a positive integer`);
  return Number(value);
}

export function optionalType(query: Query<'type'>): BillingRecordTypeFilter | undefined {
  const value = optionalString(query, 'type');
  if (value === undefined) return undefined;
  if (value !== 'top-up' && value !== 'usage') throw bad('type', 'type must be top-up or usage');
  return value;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `api_key_id`: only that key's records (issue 37); a malformed id is a 400. */
export function optionalApiKeyId(query: Query<'api_key_id'>): string | undefined {
  const value = optionalString(query, 'api_key_id');
  if (value === undefined) return undefined;
  if (!UUID.test(value)) throw bad('api_key_id', 'api_key_id must be a UUID');
  return value.toLowerCase();
}
