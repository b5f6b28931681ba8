import type { ReferenceObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import {
  APP_ERRORS,
  AppErrorCode,
  INSUFFICIENT_BALANCE_INNER_CODE,
  INVALID_ADMIN_TOKEN_MESSAGE,
  insufficientBalanceMessage,
  modelNotFoundMessage,
  replicateInvalidVersionMessage,
  replicateModelNotFoundMessage,
  syncWaitExpiredMessage,
  unknownProviderMessage,
  uploadDailyLimitMessage,
  uploadQuotaExceededMessage,
} from '@genhub/errors';

/**
 * The error answers of the public interface (docs/interface.md, "Errors"), one reusable
 * response per family and status, with the exact bodies as examples (taken from the error
 * catalogue, so a message changes in one place). Routes refer to them through
 * their family decorator (`api-operation.decorator.ts`).
 */

export const ref = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });
export const json = (
  schema: SchemaObject | ReferenceObject,
  examples?: Record<string, unknown>,
) => ({
  'application/json': {
    schema,
    ...(examples
      ? {
          examples: Object.fromEntries(
            Object.entries(examples).map(([key, value]) => [key, { value }]),
          ),
        }
      : {}),
  },
});

const msg = (code: AppErrorCode): string => APP_ERRORS[code].message;
const v1 = (status: number, error: unknown) => ({ code: status, error });
const v3 = (status: number, message: string) => ({ code: status, message, data: null });
const replicate = (title: string, detail: string, status: number) => ({ title, detail, status });

/** Reusable error responses, exact bodies as examples, per response family. */
export const ERROR_RESPONSES: Record<string, ResponseObject> = {
  V1BadRequest: {
    description:
      'Invalid parameters (missing field, wrong type, value out of range) or an unrecognized provider (nested business code 1401). Nothing was charged.',
    content: json(ref('V1Error'), {
      invalidParameters: v1(400, 'prompt must be a string'),
      unknownProvider: v1(400, {
        code: APP_ERRORS.unknown_provider.innerCode,
        error: unknownProviderMessage('acme'),
      }),
    }),
  },
  V1Unauthorized: {
    description: 'Missing or invalid API key.',
    content: json(ref('V1Error'), {
      missingHeader: v1(401, msg('missing_authorization')),
      invalidFormat: v1(401, msg('invalid_authorization_format')),
      invalidKey: v1(401, msg('invalid_api_key')),
    }),
  },
  V1PaymentRequired: {
    description: `Balance (net of reservations) lower than the price; nested business code ${INSUFFICIENT_BALANCE_INNER_CODE}. Nothing was charged.`,
    content: json(ref('V1Error'), {
      insufficientBalance: v1(402, {
        code: INSUFFICIENT_BALANCE_INNER_CODE,
        error: insufficientBalanceMessage('$', '0.000', '0.001'),
      }),
    }),
  },
  V1Forbidden: {
    description: 'Account suspended, or prompt blocked by content policy.',
    content: json(ref('V1Error'), {
      accountSuspended: v1(403, msg('account_suspended')),
      contentBlocked: v1(403, msg('content_blocked')),
    }),
  },
  V1NotFound: {
    description: 'Endpoint, model slug or task does not exist (or is not yours).',
    content: json(ref('V1Error'), { notFound: v1(404, msg('not_found')) }),
  },
  V1ServerError: {
    description: 'Unexpected server error (transient: retry with backoff).',
    content: json(ref('V1Error'), { serverError: v1(500, msg('internal')) }),
  },
  V3BadRequest: {
    description: 'Invalid query or body.',
    content: json(ref('V3Error'), {
      invalidParameters: v3(400, 'per_page must be an integer from 1 to 100'),
    }),
  },
  V3Unauthorized: {
    description:
      'Missing or invalid API key (or, on an event stream, an event-stream token that is wrong, expired or for another task).',
    content: json(ref('V3Error'), {
      missingHeader: v3(401, msg('missing_authorization')),
      invalidFormat: v3(401, msg('invalid_authorization_format')),
      invalidKey: v3(401, msg('invalid_api_key')),
      streamTokenRefused: v3(401, msg('stream_token_refused')),
    }),
  },
  V3PaymentRequired: {
    description: 'Balance (net of reservations) lower than the price. Nothing was charged.',
    content: json(ref('V3Error'), {
      insufficientBalance: v3(402, insufficientBalanceMessage('$', '0.000', '0.001')),
    }),
  },
  V3Forbidden: {
    description: 'Account suspended.',
    content: json(ref('V3Error'), { accountSuspended: v3(403, msg('account_suspended')) }),
  },
  V3NotFound: {
    description: 'Endpoint or task does not exist (or is not yours).',
    content: json(ref('V3Error'), { notFound: v3(404, msg('not_found')) }),
  },
  V3PayloadTooLarge: {
    description:
      'File over the limit of its type (image 20 MB, video 100 MB, audio 50 MB), or over what the account’s upload storage quota has left (`UPLOAD_QUOTA_BYTES`, 10 GB by default). Nothing was kept.',
    content: json(ref('V3Error'), {
      tooLarge: v3(413, msg('payload_too_large')),
      uploadQuotaExceeded: v3(
        413,
        uploadQuotaExceededMessage(10 * 1024 ** 3, 10 * 1024 ** 3 - 5 * 1024 ** 2, {
          bytes: 20 * 1024 ** 2,
        }),
      ),
    }),
  },
  V3TooManyRequests: {
    description:
      'The account holds as many open event streams on this server as it may, or (uploads) made as many uploads today, UTC, as it may (`UPLOAD_QUOTA_PER_DAY`, 10,000 by default).',
    content: json(ref('V3Error'), {
      tooManyStreams: v3(429, msg('too_many_streams')),
      dailyUploadLimit: v3(429, uploadDailyLimitMessage(10_000)),
    }),
  },
  V3ServerError: {
    description: 'Unexpected server error.',
    content: json(ref('V3Error'), { serverError: v3(500, msg('internal')) }),
  },
  V3ServiceUnavailable: {
    description:
      'A part the route needs is briefly unavailable (or the server is shutting down): retry.',
    content: json(ref('V3Error'), { unavailable: v3(503, msg('service_unavailable')) }),
  },
  AdminBadRequest: {
    description: 'Invalid body: unknown field, wrong type or value out of range.',
    content: json(ref('V1Error'), {
      invalidAmount: v1(400, 'Invalid request: amount must be a positive number'),
    }),
  },
  AdminUnauthorized: {
    description: 'Missing or wrong admin token.',
    content: json(ref('V1Error'), {
      missingHeader: v1(401, msg('missing_authorization')),
      invalidFormat: v1(401, msg('invalid_authorization_format')),
      wrongToken: v1(401, INVALID_ADMIN_TOKEN_MESSAGE),
    }),
  },
  AdminNotFound: {
    description:
      'Unknown account or key, or the admin API is disabled (`ADMIN_TOKEN` unset: every admin route answers 404).',
    content: json(ref('V1Error'), { notFound: v1(404, msg('not_found')) }),
  },
  ChatBadRequest: {
    description: 'Invalid chat request.',
    content: json(ref('ChatError'), {
      invalidRequest: {
        error: {
          message: 'messages must be an array',
          type: 'invalid_request_error',
          param: 'messages',
        },
      },
    }),
  },
  ChatPaymentRequired: {
    description:
      'The balance (net of reservations) does not cover the upper bound of the cost (prompt + `max_tokens` at the model’s prices). Nothing was charged.',
    content: json(ref('ChatError'), {
      insufficientBalance: {
        error: {
          message: insufficientBalanceMessage('$', '0.000', '0.004'),
          type: 'insufficient_quota',
          param: null,
        },
      },
    }),
  },
  ChatNotFound: {
    description: 'Unknown chat model.',
    content: json(ref('ChatError'), {
      unknownModel: {
        error: {
          message: modelNotFoundMessage('acme/nope'),
          type: 'invalid_request_error',
          param: 'model',
        },
      },
    }),
  },
  ChatBadGateway: {
    description:
      'The upstream refused the gateway’s credentials or answered something unusable. Nothing was charged.',
    content: json(ref('ChatError'), {
      upstreamError: {
        error: { message: msg('upstream_error'), type: 'api_error', param: null },
      },
    }),
  },
  ChatServiceUnavailable: {
    description:
      'Every route of the model failed transiently (429, 5xx, unreachable, time limit). Nothing was charged; retry with backoff.',
    content: json(ref('ChatError'), {
      unavailable: {
        error: { message: msg('service_unavailable'), type: 'server_error', param: null },
      },
    }),
  },
  ChatPayloadTooLarge: {
    description:
      'A transcription’s file over 25 MB, or over what the account’s upload storage quota has left. Nothing was kept or charged.',
    content: json(ref('ChatError'), {
      tooLarge: {
        error: {
          message: 'File too large: a transcription takes at most 25 MB',
          type: 'invalid_request_error',
          param: 'file',
          code: 'payload_too_large',
        },
      },
    }),
  },
  ChatGatewayTimeout: {
    description:
      'Images and audio routes: the task outlived the synchronous wait (`SYNC_TIMEOUT_MS`). It goes on and is billed once when it ends; `GET /v1/requests/{id}` reads it. Sent with `x-should-retry: false`: a retry would start and bill another task.',
    content: json(ref('ChatError'), {
      syncWaitExpired: {
        error: {
          message: syncWaitExpiredMessage('0f8fad5b-d9cb-469f-a165-70867728950e', 600),
          type: 'server_error',
          param: null,
          code: 'sync_wait_expired',
        },
      },
    }),
  },
  ChatServerError: {
    description: 'Unexpected server error.',
    content: json(ref('ChatError'), {
      serverError: { error: { message: msg('internal'), type: 'server_error', param: null } },
    }),
  },
  ReplicateUnauthorized: {
    description: 'Missing or invalid API key.',
    content: json(ref('ReplicateError'), {
      invalidKey: replicate('Unauthenticated', msg('invalid_api_key'), 401),
    }),
  },
  ReplicatePaymentRequired: {
    description:
      'Balance (net of reservations) or the key’s spend limit short of the price. Nothing was charged.',
    content: json(ref('ReplicateError'), {
      insufficientBalance: replicate(
        'Insufficient credit',
        insufficientBalanceMessage('$', '0.000', '0.001'),
        402,
      ),
    }),
  },
  ReplicateForbidden: {
    description:
      'Account suspended, or the key lacks the scope or may not use the model (`allowed_models`).',
    content: json(ref('ReplicateError'), {
      accountSuspended: replicate('Forbidden', msg('account_suspended'), 403),
    }),
  },
  ReplicateNotFound: {
    description: 'Unknown model, version or prediction (or not yours).',
    content: json(ref('ReplicateError'), {
      notFound: replicate('Not found', replicateModelNotFoundMessage('acme/nothing'), 404),
    }),
  },
  ReplicateConflict: {
    description: 'The prediction changed state while being canceled: retry.',
    content: json(ref('ReplicateError'), {
      changed: replicate('Conflict', 'The task changed state, please retry', 409),
    }),
  },
  ReplicateUnprocessable: {
    description:
      'Bad input (the model’s input schema, the body, `webhook_events_filter`, `Prefer`), an unknown version, or a model with several versions run by name. Nothing was charged.',
    content: json(ref('ReplicateError'), {
      invalidInput: replicate(
        'Input validation failed',
        'input is required and must be an object',
        422,
      ),
      invalidVersion: replicate(
        'Input validation failed',
        replicateInvalidVersionMessage('0123abcd'),
        422,
      ),
    }),
  },
  ReplicateServerError: {
    description: 'Unexpected server error.',
    content: json(ref('ReplicateError'), {
      serverError: replicate('Internal server error', msg('internal'), 500),
    }),
  },
};

/** The response families (docs/interface.md, "HTTP error bodies"), the admin API's included. */
export type ResponseFamily = 'v1' | 'v3' | 'chat' | 'admin' | 'replicate';

/**
 * Which reusable response answers each status, per family. Chat endpoints keep
 * the `{code, error}` shape for authentication refusals
 * (docs/interface.md, "Chat authentication refusals"); the admin API answers
 * `{code, error}` with a string `error` (docs/interface.md, "Admin API").
 */
export const ERROR_RESPONSE_NAMES = {
  v1: {
    400: 'V1BadRequest',
    401: 'V1Unauthorized',
    402: 'V1PaymentRequired',
    403: 'V1Forbidden',
    404: 'V1NotFound',
    500: 'V1ServerError',
  },
  v3: {
    400: 'V3BadRequest',
    401: 'V3Unauthorized',
    402: 'V3PaymentRequired',
    403: 'V3Forbidden',
    404: 'V3NotFound',
    413: 'V3PayloadTooLarge',
    429: 'V3TooManyRequests',
    500: 'V3ServerError',
    503: 'V3ServiceUnavailable',
  },
  chat: {
    400: 'ChatBadRequest',
    401: 'V1Unauthorized',
    402: 'ChatPaymentRequired',
    403: 'V1Forbidden',
    404: 'ChatNotFound',
    413: 'ChatPayloadTooLarge',
    500: 'ChatServerError',
    502: 'ChatBadGateway',
    503: 'ChatServiceUnavailable',
    504: 'ChatGatewayTimeout',
  },
  admin: {
    400: 'AdminBadRequest',
    401: 'AdminUnauthorized',
    404: 'AdminNotFound',
    500: 'V1ServerError',
  },
  // Bad input is 422 here (REPLICATE_STATUS_OVERRIDES), as Replicate answers it.
  replicate: {
    401: 'ReplicateUnauthorized',
    402: 'ReplicatePaymentRequired',
    403: 'ReplicateForbidden',
    404: 'ReplicateNotFound',
    409: 'ReplicateConflict',
    422: 'ReplicateUnprocessable',
    500: 'ReplicateServerError',
  },
} as const satisfies Record<ResponseFamily, Record<number, keyof typeof ERROR_RESPONSES>>;

/** The statuses a family can answer with a documented error. */
export type ErrorStatus<Family extends ResponseFamily> =
  keyof (typeof ERROR_RESPONSE_NAMES)[Family];
