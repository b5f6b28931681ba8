import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, getSchemaPath, SwaggerModule } from '@nestjs/swagger';
import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  PathsObject,
  ReferenceObject,
  ResponseObject,
  ResponsesObject,
  SchemaObject,
} from '@nestjs/swagger';
import {
  APP_ERRORS,
  AppErrorCode,
  INSUFFICIENT_BALANCE_INNER_CODE,
  insufficientBalanceMessage,
  modelNotFoundMessage,
  unknownProviderMessage,
} from '@genhub/errors';
import {
  CONTRACT_MODELS,
  MODEL_INPUT_CLASSES,
  MODEL_SUBMIT_PATHS,
} from './contract-models.constants';

/** The document's version: bump on any change of the public interface. */
export const CONTRACTS_VERSION = '1.1.0';

/** The component name of a DTO class (its `@ApiSchema` name, else the class name). */
const schemaName = (dto: new () => object): string => getSchemaPath(dto).split('/').pop() ?? '';

const ref = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: SchemaObject | ReferenceObject, examples?: Record<string, unknown>) => ({
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

/** Schemas whose key list is exhaustive (extensions.md §6, "Exact shapes"). */
const CLOSED_SCHEMAS = [
  'SubmitAck',
  'Timings',
  'TaskProcessingResult',
  'TaskCompletedResult',
  'TaskFailedResult',
  'WebhookPayload',
  'V1Error',
  'V1NestedError',
  'V3Error',
  'ChatError',
  'ChatErrorDetail',
  'AdminCreateAccountRequest',
  'AdminCreateApiKeyRequest',
  'AdminTopUpRequest',
  'AdminAccount',
  'AdminIssuedApiKey',
  'AdminRevokedApiKey',
  'AdminRotatedWebhookSecret',
  ...MODEL_INPUT_CLASSES.map(schemaName),
];

/** DTOs of query strings: documented as parameters, not as schemas. */
const QUERY_SCHEMAS = [
  'SubmitTaskQuery',
  'ListModelsQuery',
  'BillingsQuery',
  'BillingsExportQuery',
  'UsageQuery',
];

/** The `/api/v3/` envelopes, one per payload. */
const ENVELOPES: Record<string, SchemaObject | ReferenceObject> = {
  ModelListResponse: { type: 'array', items: ref('ModelEntry') },
  BillingsPageResponse: ref('BillingsPage'),
  UsageStatisticsResponse: ref('UsageStatistics'),
  DeleteTaskResponse: ref('DeleteTaskAnswer'),
  UploadResponse: ref('UploadAnswer'),
  WebhookDeliveriesResponse: ref('WebhookDelivery'),
};

function envelope(data: SchemaObject | ReferenceObject): SchemaObject {
  return {
    type: 'object',
    description: 'The `/api/v3/` envelope.',
    required: ['code', 'message', 'data'],
    additionalProperties: false,
    properties: {
      code: { type: 'integer', enum: [200] },
      message: { type: 'string', enum: ['success'] },
      data,
    },
  };
}

const msg = (code: AppErrorCode): string => APP_ERRORS[code].message;
const v1 = (status: number, error: unknown) => ({ code: status, error });
const v3 = (status: number, message: string) => ({ code: status, message, data: null });

/** Reusable error responses, exact bodies as examples, per response family. */
const ERROR_RESPONSES: Record<string, ResponseObject> = {
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
    description: 'Missing or invalid API key.',
    content: json(ref('V3Error'), {
      missingHeader: v3(401, msg('missing_authorization')),
      invalidFormat: v3(401, msg('invalid_authorization_format')),
      invalidKey: v3(401, msg('invalid_api_key')),
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
    description: 'File over the limit of its type (image 20 MB, video 100 MB, audio 50 MB).',
    content: json(ref('V3Error'), { tooLarge: v3(413, msg('payload_too_large')) }),
  },
  V3ServerError: {
    description: 'Unexpected server error.',
    content: json(ref('V3Error'), { serverError: v3(500, msg('internal')) }),
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
      wrongToken: v1(401, 'Invalid admin token'),
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
  ChatServerError: {
    description: 'Unexpected server error.',
    content: json(ref('ChatError'), {
      serverError: { error: { message: msg('internal'), type: 'server_error', param: null } },
    }),
  },
};

const errorRefs = (
  family: 'V1' | 'V3' | 'Chat',
  statuses: Record<number, string>,
): ResponsesObject =>
  Object.fromEntries(
    Object.entries(statuses).map(([status, name]) => [
      status,
      { $ref: `#/components/responses/${name.startsWith('V1') ? name : `${family}${name}`}` },
    ]),
  );

const v1Errors = (...statuses: number[]): ResponsesObject => {
  const names: Record<number, string> = {
    400: 'V1BadRequest',
    401: 'V1Unauthorized',
    402: 'V1PaymentRequired',
    403: 'V1Forbidden',
    404: 'V1NotFound',
    500: 'V1ServerError',
  };
  return errorRefs('V1', Object.fromEntries(statuses.map((s) => [s, names[s]])));
};
const v3Errors = (...statuses: number[]): ResponsesObject => {
  const names: Record<number, string> = {
    400: 'BadRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    413: 'PayloadTooLarge',
    500: 'ServerError',
  };
  return errorRefs('V3', Object.fromEntries(statuses.map((s) => [s, names[s]])));
};
/** Chat endpoints: authentication refusals keep the `{code, error}` shape (extensions.md §6). */
const chatErrors = (...statuses: number[]): ResponsesObject => {
  const names: Record<number, string> = {
    400: 'BadRequest',
    401: 'V1Unauthorized',
    402: 'PaymentRequired',
    403: 'V1Forbidden',
    404: 'NotFound',
    500: 'ServerError',
    502: 'BadGateway',
    503: 'ServiceUnavailable',
  };
  return errorRefs('Chat', Object.fromEntries(statuses.map((s) => [s, names[s]])));
};

/** The admin API answers `{code, error}` with a string `error` (extensions.md §2). */
const adminErrors = (...statuses: number[]): ResponsesObject => {
  const names: Record<number, string> = {
    400: 'AdminBadRequest',
    401: 'AdminUnauthorized',
    404: 'AdminNotFound',
    500: 'V1ServerError',
  };
  return Object.fromEntries(
    statuses.map((status) => [status, { $ref: `#/components/responses/${names[status]}` }]),
  );
};

const ok = (description: string, schema: SchemaObject | ReferenceObject): ResponseObject => ({
  description,
  content: json(schema),
});

const query = (name: string, schema: SchemaObject, description: string): ParameterObject => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

/** The query parameters of a DTO schema, taken from the generated component. */
function queryFrom(schemas: Record<string, SchemaObject>, name: string): ParameterObject[] {
  const schema = schemas[name];
  return Object.entries(schema.properties ?? {}).map(([key, property]) => {
    const { description, ...rest } = property as SchemaObject;
    return query(key, rest, description ?? key);
  });
}

const SUBMIT_QUERY_REF = (name: string): ReferenceObject => ({
  $ref: `#/components/parameters/${name}`,
});

function submitOperation(
  operationId: string,
  summary: string,
  description: string,
  body: SchemaObject | ReferenceObject,
  pathParameters: ParameterObject[],
): OperationObject {
  return {
    operationId,
    tags: ['Tasks'],
    summary,
    description,
    parameters: [
      ...pathParameters,
      SUBMIT_QUERY_REF('Sync'),
      SUBMIT_QUERY_REF('Webhook'),
      SUBMIT_QUERY_REF('Prefix'),
    ],
    requestBody: { required: true, content: json(body) },
    responses: {
      200: {
        description:
          'Without `sync`: the acknowledgement. With `sync=true`: the result object once the task is terminal, or `{id, status: "processing"}` after the synchronous wait (10 minutes).',
        content: json(ref('SubmitResponse')),
      },
      ...v1Errors(400, 401, 402, 403, 404, 500),
    },
    callbacks: {
      taskFinished: {
        '{$request.query.webhook}': {
          post: {
            operationId: `${operationId}Webhook`,
            summary: 'Webhook delivery when the task is terminal',
            description:
              "Signed in the Standard Webhooks form with the account's `webhook_secret`. A 2xx within 30 seconds is success; otherwise retried after 2 s and 4 s (3 attempts). Deduplicate on `webhook-id`.",
            security: [],
            parameters: [
              {
                name: 'webhook-id',
                in: 'header',
                required: true,
                description: 'The task id; the same on every retry.',
                schema: { type: 'string' },
              },
              {
                name: 'webhook-timestamp',
                in: 'header',
                required: true,
                description: 'Unix seconds of this attempt.',
                schema: { type: 'string', pattern: '^[0-9]+$' },
              },
              {
                name: 'webhook-signature',
                in: 'header',
                required: true,
                description:
                  '`v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<raw body>`.',
                schema: { type: 'string', pattern: '^v1,' },
              },
            ],
            requestBody: { required: true, content: json(ref('WebhookPayload')) },
            responses: {
              '2XX': { description: 'Delivered.' },
              '4XX': { description: 'The attempt failed; it is retried (3 attempts in all).' },
              '5XX': { description: 'The attempt failed; it is retried (3 attempts in all).' },
            },
          },
        },
      },
    },
  };
}

/** extensions.md §2: the operator's API, under its own bearer token, no envelope. */
function adminPaths(): PathsObject {
  const admin = (operation: OperationObject): OperationObject => ({
    tags: ['Admin'],
    security: [{ adminBearer: [] }],
    ...operation,
  });
  const id = (name: string, description: string): ParameterObject => ({
    name,
    in: 'path',
    required: true,
    description,
    schema: { type: 'string', format: 'uuid' },
  });
  const accountId = id('id', 'The account id.');
  const body = (name: string, required: boolean) => ({ required, content: json(ref(name)) });
  const statusChange = (status: 'suspended' | 'active', operationId: string, summary: string) => ({
    post: admin({
      operationId,
      summary,
      description: `Sets the account's \`status\` to \`${status}\`${status === 'suspended' ? '; its API keys answer 403 from then on' : ''}.`,
      parameters: [accountId],
      responses: {
        200: ok('The account.', ref('AdminAccount')),
        ...adminErrors(401, 404, 500),
      },
    }),
  });
  return {
    '/admin/v1/accounts': {
      post: admin({
        operationId: 'adminCreateAccount',
        summary: 'Create an account',
        description:
          "A positive opening `balance` is recorded as the account's first `top-up` billing record. The answer is the only one that carries `webhook_secret`.",
        requestBody: body('AdminCreateAccountRequest', false),
        responses: {
          201: ok('The new account, with its webhook secret.', ref('AdminAccount')),
          ...adminErrors(400, 401, 404, 500),
        },
      }),
    },
    '/admin/v1/accounts/{id}': {
      get: admin({
        operationId: 'adminGetAccount',
        summary: 'Read an account',
        parameters: [accountId],
        responses: {
          200: ok('The account (without `webhook_secret`).', ref('AdminAccount')),
          ...adminErrors(401, 404, 500),
        },
      }),
    },
    '/admin/v1/accounts/{id}/api-keys': {
      post: admin({
        operationId: 'adminIssueApiKey',
        summary: 'Issue an API key',
        description: 'The plain key is returned once and stored only as a hash.',
        parameters: [accountId],
        requestBody: body('AdminCreateApiKeyRequest', false),
        responses: {
          201: ok('The new key.', ref('AdminIssuedApiKey')),
          ...adminErrors(400, 401, 404, 500),
        },
      }),
    },
    '/admin/v1/api-keys/{keyId}': {
      delete: admin({
        operationId: 'adminRevokeApiKey',
        summary: 'Revoke an API key',
        description: 'The key answers 401 `Invalid or revoked API key` from then on.',
        parameters: [id('keyId', 'The key id.')],
        responses: {
          200: ok('The key is revoked.', ref('AdminRevokedApiKey')),
          ...adminErrors(401, 404, 500),
        },
      }),
    },
    '/admin/v1/accounts/{id}/top-ups': {
      post: admin({
        operationId: 'adminTopUpAccount',
        summary: 'Top up an account',
        parameters: [accountId],
        requestBody: body('AdminTopUpRequest', true),
        responses: {
          201: ok('The new billing record (`type: top-up`).', ref('BillingRecord')),
          ...adminErrors(400, 401, 404, 500),
        },
      }),
    },
    '/admin/v1/accounts/{id}/suspend': statusChange(
      'suspended',
      'adminSuspendAccount',
      'Suspend an account',
    ),
    '/admin/v1/accounts/{id}/unsuspend': statusChange(
      'active',
      'adminUnsuspendAccount',
      'Unsuspend an account',
    ),
    '/admin/v1/accounts/{id}/webhook-secret': {
      post: admin({
        operationId: 'adminRotateWebhookSecret',
        summary: "Rotate an account's webhook secret",
        description:
          'A new signing key, returned once; deliveries attempted from then on are signed with it only (decision 0066).',
        parameters: [accountId],
        responses: {
          200: ok('The new secret.', ref('AdminRotatedWebhookSecret')),
          ...adminErrors(401, 404, 500),
        },
      }),
    },
  };
}

/** The submit body: any of the model inputs (a single input is referenced directly). */
function submitBodySchema(): ReferenceObject {
  return MODEL_INPUT_CLASSES.length === 1
    ? ref(schemaName(MODEL_INPUT_CLASSES[0]))
    : ref('SubmitBody');
}

function buildPaths(schemas: Record<string, SchemaObject>): PathsObject {
  const slugParameters: ParameterObject[] = ['provider_id', 'model_id', 'run_type'].map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9._-]+$' },
  }));
  const paths: PathsObject = {
    '/v1/{provider_id}/{model_id}/{run_type}': {
      post: submitOperation(
        'submitTask',
        'Submit a task to any model',
        "The path is the model slug. The body is the model's input: the input schema of the model's kind (one component per kind, e.g. `SimulatorInput` for `local/simulator/test`; the per-model paths name theirs). A body that breaks the schema is answered 400 and nothing is charged.",
        submitBodySchema(),
        slugParameters,
      ),
    },
  };
  // The same route, written out for the models whose input the contracts know: exact body types.
  for (const model of MODEL_SUBMIT_PATHS) {
    const operationId = `submit${model.name.replace(/[^A-Za-z0-9]/g, '')}Task`;
    paths[`/v1/${model.slug}`] = {
      post: submitOperation(
        operationId,
        `Submit a task to ${model.slug}`,
        model.description,
        ref(schemaName(model.input)),
        [],
      ),
    };
  }
  Object.assign(paths, {
    '/v1/requests/{request_id}': {
      get: {
        operationId: 'getTaskResult',
        tags: ['Tasks'],
        summary: 'Get a task result',
        description:
          'HTTP 200 for every state, failed tasks included: a failure is reported in `status` and `code`. While the task is not terminal the answer is `{id, status: "processing"}` with `Retry-After: 3`.',
        parameters: [
          {
            name: 'request_id',
            in: 'path',
            required: true,
            description: 'The `id` of the submit acknowledgement.',
            schema: { type: 'string' },
          },
        ],
        responses: {
          200: {
            description: 'The task result.',
            headers: {
              'Retry-After': {
                description:
                  'Seconds before the next poll; present (3) while the task is not terminal.',
                schema: { type: 'integer', enum: [3] },
              },
            },
            content: json(ref('TaskResult')),
          },
          ...v1Errors(401, 403, 404, 500),
        },
      },
    },
    '/v1/balance': {
      get: {
        operationId: 'getBalance',
        tags: ['Account'],
        summary: 'Check the balance',
        description: 'The balance net of open reservations. No envelope.',
        responses: {
          200: ok('The balance.', ref('Balance')),
          ...v1Errors(401, 403, 500),
        },
      },
    },
    '/api/v3/models': {
      get: {
        operationId: 'listModels',
        tags: ['Models'],
        summary: 'List models',
        parameters: queryFrom(schemas, 'ListModelsQuery'),
        responses: {
          200: ok('The model entries.', ref('ModelListResponse')),
          ...v3Errors(400, 401, 403, 500),
        },
      },
    },
    '/api/v3/billings': {
      get: {
        operationId: 'listBillings',
        tags: ['Billing'],
        summary: 'Check billings',
        description: 'Billing records, newest first.',
        parameters: queryFrom(schemas, 'BillingsQuery'),
        responses: {
          200: ok('A page of billing records.', ref('BillingsPageResponse')),
          ...v3Errors(400, 401, 403, 500),
        },
      },
    },
    '/api/v3/billings/export': {
      get: {
        operationId: 'exportBillings',
        tags: ['Billing'],
        summary: 'Export billings as CSV',
        description:
          'Streams the billing records of an inclusive date range as CSV, newest first, one header line then one line per record.',
        parameters: queryFrom(schemas, 'BillingsExportQuery'),
        responses: {
          200: {
            description: 'CSV with the columns of a billing record.',
            content: {
              'text/csv': {
                schema: { type: 'string' },
                example:
                  'id,date,type,amount,model,task_id,balance_after\n7d0c2c1e-5a43-4a2e-9a8b-2f1f1d1c0b9a,2025-01-31,usage,-0.001,local/simulator/test,0f8fad5b-d9cb-469f-a165-70867728950e,9.999\n',
              },
            },
          },
          ...v3Errors(400, 401, 403, 500),
        },
      },
    },
    '/api/v3/usage': {
      get: {
        operationId: 'getUsage',
        tags: ['Billing'],
        summary: 'Check usage',
        description:
          "`start_date` and `end_date` are inclusive and, when either is given, replace `period`; the answer's `period` is then the month of the range's start.",
        parameters: queryFrom(schemas, 'UsageQuery'),
        responses: {
          200: ok('Usage statistics.', ref('UsageStatisticsResponse')),
          ...v3Errors(400, 401, 403, 500),
        },
      },
    },
    '/api/v3/predictions/{task_id}': {
      delete: {
        operationId: 'deleteTask',
        tags: ['Tasks'],
        summary: 'Delete or cancel a task',
        description:
          'Cancels a running task or deletes a finished one. Irreversible; output URLs become invalid immediately; processing that already occurred is not refunded.',
        parameters: [{ name: 'task_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          200: ok('The task is deleted.', ref('DeleteTaskResponse')),
          ...v3Errors(401, 403, 404, 500),
        },
      },
    },
    '/api/v3/predictions/{task_id}/webhook-deliveries': {
      get: {
        operationId: 'listWebhookDeliveries',
        tags: ['Webhooks'],
        summary: 'List the webhook deliveries of a task',
        description:
          "Every delivery attempt of the task's webhook: time, status code or error, duration.",
        parameters: [{ name: 'task_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          200: ok(
            'The delivery log (404 when the task was submitted without a webhook).',
            ref('WebhookDeliveriesResponse'),
          ),
          ...v3Errors(401, 403, 404, 500),
        },
      },
    },
    '/api/v3/files/upload': {
      post: {
        operationId: 'uploadFile',
        tags: ['Files'],
        summary: 'Upload a file for use as a model input',
        description: 'Multipart form data with one file part named `file`. Files are kept 7 days.',
        requestBody: {
          required: true,
          content: { 'multipart/form-data': { schema: ref('UploadFileBody') } },
        },
        responses: {
          200: ok('The file URL.', ref('UploadResponse')),
          ...v3Errors(400, 401, 403, 413, 500),
        },
      },
    },
    '/v1/chat/completions': {
      post: {
        operationId: 'createChatCompletion',
        tags: ['Chat'],
        summary: 'Create a chat completion (OpenAI-compatible)',
        description:
          'Billed by tokens: the upper bound (prompt + `max_tokens`, default cap 4096, at the model’s prices) is reserved first, the actual cost from the usage is charged at the end and the rest returned; a failed completion costs nothing. With `stream: true` the answer is server-sent events; an error after the first event arrives as a last `data: {"error": …}` event.',
        requestBody: { required: true, content: json(ref('ChatCompletionRequest')) },
        responses: {
          200: {
            description:
              'The completion (`application/json`), or with `stream: true` a `text/event-stream` of `data: <ChatCompletionChunk>` events ending with `data: [DONE]`.',
            content: {
              ...json(ref('ChatCompletion')),
              'text/event-stream': {
                // As common chat APIs document it: the schema is that of each event's `data:`.
                schema: ref('ChatCompletionChunk'),
                example: {
                  id: 'chatcmpl-0f8fad5b-d9cb-469f-a165-70867728950e',
                  object: 'chat.completion.chunk',
                  created: 1735689600,
                  model: 'local/chat',
                  choices: [
                    {
                      index: 0,
                      delta: { role: 'assistant', content: 'You' },
                      finish_reason: null,
                    },
                  ],
                },
              },
            },
          },
          ...chatErrors(400, 401, 402, 403, 404, 500, 502, 503),
        },
      },
    },
    '/v1/models': {
      get: {
        operationId: 'listChatModels',
        tags: ['Chat'],
        summary: 'List chat models (OpenAI-compatible)',
        description:
          'The chat models only (use `GET /api/v3/models` for the task models): ids are what `model` of a chat completion takes.',
        responses: {
          200: ok('The chat models.', ref('ChatModelList')),
          ...chatErrors(401, 403, 500),
        },
      },
    },
    '/v1/models/{model}': {
      get: {
        operationId: 'getChatModel',
        tags: ['Chat'],
        summary: 'Retrieve a chat model (OpenAI-compatible)',
        description:
          'One entry of `GET /v1/models`, or 404 in the chat error shape (`param: "model"`).',
        parameters: [
          {
            name: 'model',
            in: 'path',
            required: true,
            description:
              'A chat model id. Its slash may be sent as is or percent-encoded (`local%2Fchat`).',
            schema: { type: 'string' },
          },
        ],
        responses: {
          200: ok('The chat model.', ref('ChatModel')),
          ...chatErrors(401, 403, 404, 500),
        },
      },
    },
    ...adminPaths(),
  });
  return paths;
}

/** Orders object keys recursively so the document is byte-stable. */
function sortKeys<T>(value: T, path: string[] = []): T {
  if (Array.isArray(value)) return value.map((item) => sortKeys(item, path)) as T;
  if (value === null || typeof value !== 'object') return value;
  // Paths, properties and responses keep their authored order (it reads better).
  const keepOrder = ['paths', 'properties', 'responses', 'examples'].includes(
    path[path.length - 1] ?? '',
  );
  const entries = Object.entries(value as Record<string, unknown>);
  if (!keepOrder) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v, [...path, k])])) as T;
}

@Module({})
class ContractsDocumentModule {}

/**
 * Builds the OpenAPI document of the whole public interface. Schemas come from
 * the DTO classes through @nestjs/swagger (a Nest application is created for
 * that and closed again; it never listens); paths are declared here.
 */
export async function buildOpenApiDocument(): Promise<OpenAPIObject> {
  const app = await NestFactory.create(ContractsDocumentModule, new FastifyAdapter(), {
    logger: false,
    abortOnError: false,
  });
  let generated: OpenAPIObject;
  try {
    const config = new DocumentBuilder()
      .setTitle('genhub public API')
      .setDescription(
        'Submit generation tasks, read their results (by polling, synchronously or by webhook), list models, and query billing, usage and balance. `/v1/` answers carry no envelope; `/api/v3/` answers are wrapped in `{code, message, data}`.',
      )
      .setVersion(CONTRACTS_VERSION)
      .build();
    generated = SwaggerModule.createDocument(app, config, {
      extraModels: [...CONTRACT_MODELS],
    });
  } finally {
    await app.close();
  }
  const schemas = (generated.components?.schemas ?? {}) as Record<string, SchemaObject>;
  for (const name of CLOSED_SCHEMAS) {
    if (!schemas[name]) throw new Error(`schema ${name} missing from the DTOs`);
    schemas[name].additionalProperties = false;
  }
  for (const [name, data] of Object.entries(ENVELOPES)) schemas[name] = envelope(data);
  schemas.TaskResult = {
    description:
      'A task result: `{id, status: "processing"}` while not terminal, every field when completed, no `timings` when failed.',
    oneOf: [ref('TaskProcessingResult'), ref('TaskCompletedResult'), ref('TaskFailedResult')],
  };
  // Any of the inputs (anyOf: a body may fit several kinds); a single input is referenced directly.
  if (MODEL_INPUT_CLASSES.length > 1)
    schemas.SubmitBody = {
      description:
        "A submit body: the input of the model's kind. Each kind's schema is its own component.",
      anyOf: MODEL_INPUT_CLASSES.map((dto) => ref(schemaName(dto))),
    };
  schemas.SubmitResponse = {
    description: 'The acknowledgement (asynchronous submit) or the task result (`sync=true`).',
    oneOf: [
      ref('SubmitAck'),
      ref('TaskProcessingResult'),
      ref('TaskCompletedResult'),
      ref('TaskFailedResult'),
    ],
  };
  const submitQuery = schemas.SubmitTaskQuery.properties ?? {};
  const submitParameter = (name: string): ParameterObject => {
    const { description, ...schema } = submitQuery[name] as SchemaObject;
    return { name, in: 'query', required: false, description, schema };
  };

  const paths = buildPaths(schemas);
  // Query DTOs became parameters: their schemas are not part of the document.
  for (const name of QUERY_SCHEMAS) delete schemas[name];

  const document: OpenAPIObject = {
    openapi: '3.0.3',
    info: { ...generated.info, license: { name: 'UNLICENSED' } },
    servers: [{ url: '/', description: 'The gateway serving this document' }],
    tags: [
      { name: 'Tasks', description: 'Submit tasks, read results, delete tasks.' },
      { name: 'Account', description: 'Balance.' },
      { name: 'Models', description: 'The model catalogue.' },
      { name: 'Billing', description: 'Billing records, export and usage.' },
      { name: 'Files', description: 'Uploads for use as model inputs.' },
      { name: 'Webhooks', description: 'Webhook delivery records.' },
      { name: 'Chat', description: 'OpenAI-compatible chat endpoints.' },
      {
        name: 'Admin',
        description: 'The operator API (`/admin/v1`): accounts, API keys, top-ups, suspension.',
      },
    ],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: '`Authorization: Bearer <API_KEY>`',
        },
        adminBearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            '`Authorization: Bearer <ADMIN_TOKEN>`; the admin API exists only when `ADMIN_TOKEN` is set.',
        },
      },
      parameters: {
        Sync: submitParameter('sync'),
        Webhook: submitParameter('webhook'),
        Prefix: submitParameter('prefix'),
      },
      responses: ERROR_RESPONSES,
      schemas,
    },
  };
  return sortKeys(document);
}
