// What an API key may carry beyond its account (issue 37, decision 0134): the
// names are part of the admin and self-service contracts; the accounts schema's
// CHECK constraints were written from them.

/** What a key may do. Absent (`null`) on a key: every scope, as every key had before. */
export const API_KEY_SCOPES = [
  'tasks:write',
  'tasks:read',
  'billing:read',
  'files:write',
  'keys:manage',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** The scopes a key without a `scopes` list has: all of them. */
export const DEFAULT_API_KEY_SCOPES: readonly ApiKeyScope[] = API_KEY_SCOPES;

/** A spend limit's period; `day` and `month` are UTC calendar periods, `total` never resets. */
export const SPEND_PERIODS = ['day', 'month', 'total'] as const;
export type SpendPeriod = (typeof SPEND_PERIODS)[number];

/**
 * A model pattern of `allowed_models`: a slug where `*` stands for any run of
 * characters, `/` included (`local/*`, `openai/gpt-image-1/*`, `*`).
 */
export const MODEL_PATTERN = /^[A-Za-z0-9._*-]+(\/[A-Za-z0-9._*-]+){0,2}$/;
export const MAX_ALLOWED_MODELS = 100;
export const MAX_MODEL_PATTERN_LENGTH = 200;

/** Whether `slug` (`provider/model/run_type`) matches one of `patterns`; null patterns: every model. */
export function modelAllowed(patterns: readonly string[] | null, slug: string): boolean {
  if (patterns === null) return true;
  return patterns.some((pattern) => patternRegExp(pattern).test(slug));
}

const compiled = new Map<string, RegExp>();
function patternRegExp(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (!re) {
    const body = pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\-]/g, '\\$&'))
      .join('.*');
    re = new RegExp(`^${body}$`);
    if (compiled.size > 10_000) compiled.clear();
    compiled.set(pattern, re);
  }
  return re;
}

/** Whether a key with `scopes` (null: the default ones) has `scope`. */
export function hasScope(scopes: readonly ApiKeyScope[] | null, scope: ApiKeyScope): boolean {
  return (scopes ?? DEFAULT_API_KEY_SCOPES).includes(scope);
}
