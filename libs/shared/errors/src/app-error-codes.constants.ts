/**
 * Request-level errors: why an HTTP call is refused. Domain code throws
 * `AppException(code, …)`; one filter per response family turns the code into
 * the documented body (docs/interface.md, "HTTP error bodies").
 */
export const AppErrorCode = {
  InvalidRequest: 'invalid_request',
  UnknownProvider: 'unknown_provider',
  MissingAuthorization: 'missing_authorization',
  InvalidAuthorizationFormat: 'invalid_authorization_format',
  InvalidApiKey: 'invalid_api_key',
  /** The key's `expires_at` has passed (issue 37). */
  ApiKeyExpired: 'api_key_expired',
  InsufficientBalance: 'insufficient_balance',
  AccountSuspended: 'account_suspended',
  /** The key's `scopes` do not include what the call needs (issue 37). */
  ScopeNotAllowed: 'scope_not_allowed',
  /** The model is outside the key's `allowed_models` (issue 37). */
  ModelNotAllowed: 'model_not_allowed',
  /** The price would take the key past its `spend_limit` in the current period (issue 37). */
  KeySpendLimitReached: 'key_spend_limit_reached',
  /** A key asked for a key with more than it has itself (`/api/v3/keys`, issue 37). */
  KeyWiderThanCaller: 'key_wider_than_caller',
  ContentBlocked: 'content_blocked',
  /** A direct-upload URL whose signature is wrong or whose time is up. */
  UploadTicketRefused: 'upload_ticket_refused',
  /** An event-stream token whose signature is wrong, whose time is up, or made for another task. */
  StreamTokenRefused: 'stream_token_refused',
  NotFound: 'not_found',
  /** A chat request names a model that is not in the chat catalogue. */
  ModelNotFound: 'model_not_found',
  Conflict: 'conflict',
  /** An account holds as many open task event streams on a gateway as it may. */
  TooManyStreams: 'too_many_streams',
  PayloadTooLarge: 'payload_too_large',
  /** The account's unexpired uploads would hold more bytes than UPLOAD_QUOTA_BYTES (decision 0129). */
  UploadQuotaExceeded: 'upload_quota_exceeded',
  /** The account made UPLOAD_QUOTA_PER_DAY uploads today (UTC) already (decision 0129). */
  UploadDailyLimitReached: 'upload_daily_limit_reached',
  /** A path segment longer than the router reads (the transport refuses it). */
  UriTooLong: 'uri_too_long',
  /** The request line and headers together exceed the HTTP server's limit. */
  HeaderFieldsTooLarge: 'header_fields_too_large',
  /** The client did not send its request in time. */
  RequestTimeout: 'request_timeout',
  /** An upstream provider refused us (credentials) or answered something unusable. */
  UpstreamError: 'upstream_error',
  ServiceUnavailable: 'service_unavailable',
  /**
   * An OpenAI-compatible media call whose task outlived the synchronous wait: the task goes on
   * and settles once when it ends (decision 0136).
   */
  SyncWaitExpired: 'sync_wait_expired',
  Internal: 'internal',
} as const;

export type AppErrorCode = (typeof AppErrorCode)[keyof typeof AppErrorCode];

export interface AppErrorEntry {
  readonly status: number;
  /** Default message; some codes always carry a specific one (given when thrown). */
  readonly message: string;
  /** Business code nested in `error` on /v1/ answers (docs/interface.md, "HTTP error bodies"). */
  readonly innerCode?: number;
  readonly transient: boolean;
}

/**
 * Inner business code for insufficient balance: the public interface leaves it open; ours
 * is 1300 (docs/interface.md, "HTTP error bodies").
 */
export const INSUFFICIENT_BALANCE_INNER_CODE = 1300;
/** Inner business code for a key's spend limit reached (issue 37): refused like a balance. */
export const KEY_SPEND_LIMIT_INNER_CODE = 1301;

export const APP_ERRORS = {
  invalid_request: { status: 400, message: 'Invalid request', transient: false },
  unknown_provider: {
    status: 400,
    message: 'Invalid provider',
    innerCode: 1401,
    transient: false,
  },
  missing_authorization: {
    status: 401,
    message: 'Missing Authorization header',
    transient: false,
  },
  invalid_authorization_format: {
    status: 401,
    message: 'Invalid Authorization format, expected: Bearer <api_key>',
    transient: false,
  },
  invalid_api_key: { status: 401, message: 'Invalid or revoked API key', transient: false },
  api_key_expired: { status: 401, message: 'API key expired', transient: false },
  stream_token_refused: {
    status: 401,
    message: 'Event stream token is not valid or has expired',
    transient: false,
  },
  insufficient_balance: {
    status: 402,
    message: 'Insufficient balance',
    innerCode: INSUFFICIENT_BALANCE_INNER_CODE,
    transient: false,
  },
  key_spend_limit_reached: {
    status: 402,
    message: 'API key spend limit reached',
    innerCode: KEY_SPEND_LIMIT_INNER_CODE,
    transient: false,
  },
  account_suspended: { status: 403, message: 'Account suspended', transient: false },
  scope_not_allowed: {
    status: 403,
    message: 'This API key does not have the scope this call needs',
    transient: false,
  },
  model_not_allowed: {
    status: 403,
    message: 'This API key may not use this model',
    transient: false,
  },
  key_wider_than_caller: {
    status: 403,
    message: 'A key cannot create or widen a key beyond its own limits',
    transient: false,
  },
  content_blocked: {
    status: 403,
    message: 'Prompt blocked by content policy',
    transient: false,
  },
  upload_ticket_refused: {
    status: 403,
    message: 'Upload ticket is not valid or has expired',
    transient: false,
  },
  not_found: { status: 404, message: 'Not found', transient: false },
  model_not_found: { status: 404, message: 'The model does not exist', transient: false },
  conflict: { status: 409, message: 'Conflict', transient: false },
  too_many_streams: {
    status: 429,
    message: 'Too many open event streams: close one and retry',
    transient: true,
  },
  payload_too_large: { status: 413, message: 'Request body too large', transient: false },
  upload_quota_exceeded: {
    status: 413,
    message: 'Upload storage quota exceeded',
    transient: false,
  },
  upload_daily_limit_reached: {
    status: 429,
    message: 'Daily upload limit reached',
    transient: false,
  },
  uri_too_long: { status: 414, message: 'Request URL too long', transient: false },
  header_fields_too_large: {
    status: 431,
    message: 'Request header fields too large',
    transient: false,
  },
  request_timeout: { status: 408, message: 'Request timeout', transient: true },
  upstream_error: { status: 502, message: 'Upstream provider error', transient: true },
  service_unavailable: {
    status: 503,
    message: 'Service temporarily unavailable, please retry',
    transient: true,
  },
  sync_wait_expired: {
    status: 504,
    message: 'The task did not finish within the synchronous wait',
    transient: false,
  },
  internal: { status: 500, message: 'Server error', transient: true },
} as const satisfies Record<AppErrorCode, AppErrorEntry>;

/**
 * The 401 text for a wrong admin token (docs/interface.md, "Admin API"): the admin API and
 * the queue board refuse with it, under the `invalid_api_key` code.
 */
export const INVALID_ADMIN_TOKEN_MESSAGE = 'Invalid admin token';

/** The 402 text (docs/interface.md, "402 message"): balance net of reservations, three decimals. */
export function insufficientBalanceMessage(
  currencySymbol: string,
  current: string,
  required: string,
): string {
  return `Insufficient balance. Current: ${currencySymbol}${current}, required: ${currencySymbol}${required}. Please top up and try again.`;
}

/**
 * The key-limit 402 text (docs/interface.md, "402 message"): the key's limit
 * and its period (UTC), what the period has spent, the price; three decimals.
 */
export function keySpendLimitMessage(
  currencySymbol: string,
  limit: string,
  period: 'day' | 'month' | 'total',
  spent: string,
  required: string,
): string {
  const per = period === 'total' ? 'in total' : `per ${period}`;
  return `API key spend limit reached. Limit: ${currencySymbol}${limit} ${per}, spent: ${currencySymbol}${spent}, required: ${currencySymbol}${required}.`;
}

/** The 403 text of a key without the scope its call needs (issue 37). */
export function scopeNotAllowedMessage(scope: string): string {
  return `This API key does not have the scope ${scope}`;
}

/** The 403 text of a model outside the key's `allowed_models` (issue 37). */
export function modelNotAllowedMessage(slug: string): string {
  return `This API key may not use the model ${slug}`;
}

/** The 403 text of `/api/v3/keys` refusing a key wider than its caller, with why (issue 37). */
export function keyWiderThanCallerMessage(reason: string): string {
  return `A key cannot create or widen a key beyond its own limits: ${reason}`;
}

/** The 400 text for an unrecognized provider (docs/interface.md, "HTTP error bodies"). */
export function unknownProviderMessage(provider: string): string {
  return `Invalid provider '${provider}'. Model slug must have the form {provider_id}/{model_id}/{run_type}`;
}

/** Bytes as the upload messages write them: 1 KB = 1,024 bytes, at most two decimals. */
export function formatBytes(bytes: number): string {
  const units = ['GB', 'MB', 'KB'] as const;
  for (const [i, unit] of units.entries()) {
    const size = 1024 ** (units.length - i);
    if (bytes >= size) return `${Number((bytes / size).toFixed(2))} ${unit}`;
  }
  return `${bytes} bytes`;
}

/**
 * The 413 text of the upload quota (decision 0129): the limit and what the account's
 * unexpired uploads hold, and when known the file's size (`file`) or, for a file
 * refused while streaming, what was left (`left`).
 */
export function uploadQuotaExceededMessage(
  limitBytes: number,
  heldBytes: number,
  file?: { bytes: number } | { leftBytes: number },
): string {
  const base = `Upload storage quota exceeded: the unexpired uploads of this account may hold ${formatBytes(limitBytes)} (${formatBytes(heldBytes)} held now)`;
  if (!file) return base;
  return 'bytes' in file
    ? `${base}; this file is ${formatBytes(file.bytes)}`
    : `${base}; this file is larger than the ${formatBytes(file.leftBytes)} left`;
}

/** The 429 text of the daily upload limit (decision 0129). */
export function uploadDailyLimitMessage(perDay: number): string {
  return `Daily upload limit reached: at most ${perDay} uploads per account per day (UTC); more are accepted from 00:00 UTC`;
}

/** The chat 404 text, in the words common chat-completions APIs use. */
export function modelNotFoundMessage(model: string): string {
  return `The model \`${model}\` does not exist or you do not have access to it.`;
}

/** The Replicate-compatible 404 of an `owner/name` that is no model of ours (decision 0137). */
export function replicateModelNotFoundMessage(model: string): string {
  return `Model not found: ${model}. Models are named {provider_id}/{model_id}; GET /replicate/v1/models/{provider_id}/{model_id} shows one`;
}

/** The Replicate-compatible 422 of a model run by name while it has several versions (run types). */
export function replicateModelHasVersionsMessage(model: string, versions: string[]): string {
  return `The model ${model} has several versions (${versions.join(', ')}): create the prediction with one of them, as version in POST /replicate/v1/predictions or as ${model}:<version> in run()`;
}

/** The Replicate-compatible 422 of a version id that names no model of ours. */
export function replicateInvalidVersionMessage(version: string): string {
  return `Invalid version or not permitted: ${version}. A version id is {provider_id}~{model_id}~{run_type}`;
}

/** The Replicate-compatible 422 of a `Prefer` header it cannot honour. */
export const REPLICATE_INVALID_PREFER_MESSAGE =
  'Invalid Prefer header: give wait, or wait=n with n from 1 to 60 (seconds)';

/**
 * Where the Replicate-compatible routes answer another status than the
 * catalogue's: bad input is 422 there, as Replicate answers it (decision 0137).
 */
export const REPLICATE_STATUS_OVERRIDES = {
  invalid_request: 422,
  unknown_provider: 422,
  content_blocked: 422,
} as const satisfies Partial<Record<AppErrorCode, number>>;

/** The status of a code on the Replicate-compatible routes. */
export function replicateStatus(code: AppErrorCode): number {
  return (
    (REPLICATE_STATUS_OVERRIDES as Partial<Record<AppErrorCode, number>>)[code] ??
    APP_ERRORS[code].status
  );
}

/** The 409 of a delete asked only for an open task (a Replicate-compatible cancel) that ended. */
export const TASK_ALREADY_ENDED_MESSAGE = 'The task already ended';

/**
 * The 504 text of an OpenAI-compatible media call whose task outlived the sync wait
 * (decision 0136): the task, that it goes on and is billed once, where to read it.
 */
export function syncWaitExpiredMessage(taskId: string, waitSeconds: number): string {
  return `The task ${taskId} did not finish within the synchronous wait of ${waitSeconds} s. It goes on and is billed once when it ends; read its result at GET /v1/requests/${taskId}. Retrying would start (and bill) another task.`;
}

/** The 400 text of an OpenAI-compatible media call naming a model of another kind. */
export function modelKindMismatchMessage(model: string, wanted: string): string {
  return `Invalid request: the model ${model} does not ${wanted}; GET /v1/models lists the models each route takes`;
}
