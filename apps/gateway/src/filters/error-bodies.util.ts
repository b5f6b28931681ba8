import type {
  ChatErrorDto,
  ReplicateErrorDto,
  V1ErrorDto,
  V3ErrorDto,
} from '@genhub/contracts/server';
import { APP_ERRORS, AppErrorCode, AppException, replicateStatus } from '@genhub/errors';
import { ResponseFamily } from './response-family.util';

/**
 * The error shapes of the contracts (decision 0010): `/v1/` and admin
 * `{code, error}` (`error` nested `{code, error}` for some codes), `/api/v3/`
 * the envelope with `data: null`, chat the chat-completions error object, and
 * Replicate's problem object `{title, detail, status}` on `/replicate/v1/`
 * (decision 0137), which its client quotes whole in `ApiError.message`.
 */
export type ErrorBody = V1ErrorDto | V3ErrorDto | ChatErrorDto | ReplicateErrorDto;

/**
 * How `/v1/` writes each code's `error`. Exhaustive: a new catalogue code does
 * not compile until it is placed here.
 */
const V1_ERROR_FORM = {
  invalid_request: 'string',
  unknown_provider: 'nested',
  missing_authorization: 'string',
  invalid_authorization_format: 'string',
  invalid_api_key: 'string',
  insufficient_balance: 'nested',
  account_suspended: 'string',
  content_blocked: 'string',
  upload_ticket_refused: 'string',
  stream_token_refused: 'string',
  not_found: 'string',
  model_not_found: 'string',
  conflict: 'string',
  too_many_streams: 'string',
  payload_too_large: 'string',
  upload_quota_exceeded: 'string',
  upload_daily_limit_reached: 'string',
  uri_too_long: 'string',
  header_fields_too_large: 'string',
  request_timeout: 'string',
  upstream_error: 'string',
  service_unavailable: 'string',
  sync_wait_expired: 'string',
  internal: 'string',
  api_key_expired: 'string',
  scope_not_allowed: 'string',
  model_not_allowed: 'string',
  key_spend_limit_reached: 'nested',
  key_wider_than_caller: 'string',
} as const satisfies Record<AppErrorCode, 'string' | 'nested'>;

/**
 * The chat family: the `type` of each code, or `'standard'` for the
 * authentication refusals, which are answered before the handler runs and so
 * use `{code, error}` (docs/interface.md, "Authentication" and
 * "Chat authentication refusals").
 */
const CHAT_ERROR_TYPE = {
  invalid_request: 'invalid_request_error',
  unknown_provider: 'invalid_request_error',
  missing_authorization: 'standard',
  invalid_authorization_format: 'standard',
  invalid_api_key: 'standard',
  insufficient_balance: 'insufficient_quota',
  account_suspended: 'standard',
  content_blocked: 'invalid_request_error',
  upload_ticket_refused: 'invalid_request_error',
  stream_token_refused: 'standard',
  not_found: 'not_found_error',
  model_not_found: 'invalid_request_error',
  conflict: 'invalid_request_error',
  too_many_streams: 'rate_limit_error',
  payload_too_large: 'invalid_request_error',
  upload_quota_exceeded: 'invalid_request_error',
  upload_daily_limit_reached: 'rate_limit_error',
  uri_too_long: 'invalid_request_error',
  header_fields_too_large: 'invalid_request_error',
  request_timeout: 'invalid_request_error',
  upstream_error: 'api_error',
  service_unavailable: 'server_error',
  sync_wait_expired: 'server_error',
  internal: 'server_error',
  api_key_expired: 'standard',
  scope_not_allowed: 'standard',
  model_not_allowed: 'permission_error',
  key_spend_limit_reached: 'insufficient_quota',
  key_wider_than_caller: 'permission_error',
} as const satisfies Record<AppErrorCode, string>;

/**
 * The Replicate family's `title` of each code, in Replicate's words where it
 * has them. Exhaustive, as the maps above.
 */
const REPLICATE_ERROR_TITLE = {
  invalid_request: 'Input validation failed',
  unknown_provider: 'Invalid version',
  missing_authorization: 'Unauthenticated',
  invalid_authorization_format: 'Unauthenticated',
  invalid_api_key: 'Unauthenticated',
  insufficient_balance: 'Insufficient credit',
  account_suspended: 'Forbidden',
  content_blocked: 'Input validation failed',
  upload_ticket_refused: 'Forbidden',
  stream_token_refused: 'Unauthenticated',
  not_found: 'Not found',
  model_not_found: 'Not found',
  conflict: 'Conflict',
  too_many_streams: 'Too many requests',
  payload_too_large: 'Request too large',
  upload_quota_exceeded: 'Request too large',
  upload_daily_limit_reached: 'Too many requests',
  uri_too_long: 'Request URL too long',
  header_fields_too_large: 'Request header fields too large',
  request_timeout: 'Request timeout',
  upstream_error: 'Upstream error',
  service_unavailable: 'Service unavailable',
  internal: 'Internal server error',
  api_key_expired: 'Unauthenticated',
  scope_not_allowed: 'Forbidden',
  model_not_allowed: 'Forbidden',
  key_spend_limit_reached: 'Insufficient credit',
  key_wider_than_caller: 'Forbidden',
  sync_wait_expired: 'Gateway timeout',
} as const satisfies Record<AppErrorCode, string>;

/**
 * The OpenAI-compatible media routes (decision 0136): the chat body plus OpenAI's `code`,
 * which the openai SDK surfaces as `APIError.code`. The catalogue code, except where OpenAI
 * has its own word; a missing scope is a permission error there, not an authentication one.
 */
const MEDIA_ERROR_CODE: Partial<Record<AppErrorCode, string>> = {
  insufficient_balance: 'insufficient_quota',
};

/** The HTTP status of a catalogue error: the transport's concern, not the exception's. */
export function httpStatus(error: AppException, family?: ResponseFamily): number {
  // Bad input is 422 in Replicate's API (and its client's reading), 400 elsewhere.
  if (family === 'replicate') return replicateStatus(error.code);
  return APP_ERRORS[error.code].status;
}

function standardBody(error: AppException): V1ErrorDto {
  const entry = APP_ERRORS[error.code] as { innerCode?: number };
  if (V1_ERROR_FORM[error.code] === 'nested' && entry.innerCode !== undefined)
    return { code: httpStatus(error), error: { code: entry.innerCode, error: error.message } };
  return { code: httpStatus(error), error: error.message };
}

/** The one mapping from a catalogue error to the body of a response family. */
export function errorBody(family: ResponseFamily, error: AppException): ErrorBody {
  switch (family) {
    case 'v1':
      return standardBody(error);
    case 'admin':
      return { code: httpStatus(error), error: error.message };
    case 'v3':
      return { code: httpStatus(error), message: error.message, data: null };
    case 'replicate':
      return {
        title: REPLICATE_ERROR_TITLE[error.code],
        detail: error.message,
        status: httpStatus(error, family),
      };
    case 'chat':
      return chatBody(error);
    case 'media': {
      const type =
        error.code === 'scope_not_allowed' ? 'permission_error' : CHAT_ERROR_TYPE[error.code];
      return type === 'standard' ? standardBody(error) : mediaBody(error, type);
    }
  }
}

function chatBody(error: AppException): ErrorBody {
  const type = CHAT_ERROR_TYPE[error.code];
  if (type === 'standard') return standardBody(error);
  return {
    error: {
      message: error.message,
      type,
      param: error.details.param ?? error.details.fields?.[0] ?? null,
    },
  };
}

function mediaBody(error: AppException, type: string): ErrorBody {
  return {
    error: {
      message: error.message,
      type,
      param: error.details.param ?? error.details.fields?.[0] ?? null,
      code: MEDIA_ERROR_CODE[error.code] ?? error.code,
    },
  };
}
