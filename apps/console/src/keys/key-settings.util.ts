import {
  API_KEY_SCOPES,
  type ApiKeyScope,
  MODEL_PATTERN,
  type SpendLimit,
  type SpendPeriod,
  type UpdateApiKeyRequest,
} from '@genhub/contracts';

/** A key's settings as the create and PATCH bodies take them (absent: unchanged or none; null: none). */
export type KeySettings = UpdateApiKeyRequest;

/** The key form's fields, as typed (text), before they become settings. */
export interface KeyForm {
  name: string;
  /** Model patterns, one a line; empty: every model. */
  models: string;
  /** Empty: no spend limit. */
  limitAmount: string;
  limitPeriod: SpendPeriod;
  /** A `datetime-local` value (the browser's time zone); empty: never expires. */
  expiresAt: string;
  scopes: ApiKeyScope[];
}

export const EMPTY_KEY_FORM: KeyForm = {
  name: '',
  models: '',
  limitAmount: '',
  limitPeriod: 'day',
  expiresAt: '',
  scopes: [...API_KEY_SCOPES],
};

/** How the form names a period, and how the list says what was spent in it. */
export const PERIOD_LABELS: Record<SpendPeriod, { limit: string; spent: string }> = {
  day: { limit: 'per day (UTC)', spent: 'today (UTC)' },
  month: { limit: 'per month (UTC)', spent: 'this month (UTC)' },
  total: { limit: 'in total', spent: 'in total' },
};

/** The model patterns of the form's text: one a line, blank lines dropped. */
export function modelLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** `YYYY-MM-DDTHH:mm` of an instant in the browser's time zone (what `datetime-local` shows). */
export function localInputOf(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** The form of a key's current settings (to edit them). */
export function formOfKey(key: {
  name: string | null;
  allowed_models: string[] | null;
  spend_limit: SpendLimit | null;
  expires_at: string | null;
  scopes: ApiKeyScope[] | null;
}): KeyForm {
  return {
    name: key.name ?? '',
    models: (key.allowed_models ?? []).join('\n'),
    limitAmount: key.spend_limit ? String(key.spend_limit.amount) : '',
    limitPeriod: key.spend_limit?.period ?? 'day',
    expiresAt: key.expires_at ? localInputOf(key.expires_at) : '',
    scopes: key.scopes ?? [...API_KEY_SCOPES],
  };
}

/** What is wrong with the form before any request, or nothing (the API checks the rest). */
export function formProblem(form: KeyForm): string | undefined {
  const wrong = modelLines(form.models).find((line) => !MODEL_PATTERN.test(line));
  if (wrong !== undefined)
    return `"${wrong}" is not a model pattern: use slugs such as local/* or openai/gpt-image-1/*.`;
  if (form.limitAmount.trim() !== '') {
    const amount = Number(form.limitAmount);
    if (!Number.isFinite(amount) || amount <= 0)
      return 'The spend limit must be an amount above 0.';
  }
  if (form.expiresAt && Number.isNaN(new Date(form.expiresAt).getTime()))
    return 'The expiry is not a date and time.';
  if (form.scopes.length === 0) return 'Choose at least one scope.';
  return undefined;
}

/**
 * The settings the form says. A new key leaves out what the form leaves empty
 * (no limit); an edit sends every setting, `null` where the form is empty, so
 * that what the form shows is what the key gets. Every scope ticked is "every
 * scope" (null), as on a key that was never given a list.
 */
export function settingsOfForm(form: KeyForm, mode: 'create' | 'update'): KeySettings {
  const models = modelLines(form.models);
  const amount = form.limitAmount.trim();
  const allScopes = API_KEY_SCOPES.every((scope) => form.scopes.includes(scope));
  const settings: KeySettings = {
    name: form.name.trim() || null,
    allowed_models: models.length ? models : null,
    spend_limit: amount ? { amount: Number(amount), period: form.limitPeriod } : null,
    expires_at: form.expiresAt ? new Date(form.expiresAt).toISOString() : null,
    // In the catalogue's order, whatever order they were ticked in.
    scopes: allScopes ? null : API_KEY_SCOPES.filter((scope) => form.scopes.includes(scope)),
  };
  if (mode === 'update') return settings;
  return Object.fromEntries(
    Object.entries(settings).filter(([, value]) => value !== null),
  ) as KeySettings;
}

/** What a key spent, against its limit when it has one: "0.002 of 0.002 USD today (UTC)". */
export function spendText(spent: number, limit: SpendLimit | null, currency: string): string {
  const unit = currency ? ` ${currency}` : '';
  if (!limit) return `${spent}${unit} since issued (no limit)`;
  return `${spent} of ${limit.amount}${unit} ${PERIOD_LABELS[limit.period].spent}`;
}

/** Whether a key has no room left in its period (its next paid call is refused). */
export function limitReached(spent: number, limit: SpendLimit | null): boolean {
  return limit !== null && spent >= limit.amount;
}

/** The models a key may use, in a few words. */
export function modelsText(patterns: readonly string[] | null): string {
  return patterns === null ? 'every model' : patterns.join(', ');
}

/** The scopes a key has, in a few words. */
export function scopesText(scopes: readonly ApiKeyScope[] | null): string {
  return scopes === null ? 'every scope' : scopes.join(', ');
}

/** A key in a list of choices: "batch (gh_1a2b3c4d…)", with its status unless active. */
export function keyChoiceText(key: {
  name: string | null;
  prefix: string;
  status: string;
}): string {
  const status = key.status === 'active' ? '' : `, ${key.status}`;
  return `${key.name ?? 'unnamed'} (${key.prefix}…)${status}`;
}
