import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getSchemaPath } from '@nestjs/swagger';
import { APP_ERRORS, TASK_FAILURE_CODES } from '@genhub/errors';
import { CONTRACT_MODELS, MODEL_INPUT_CLASSES, SimulatorInputDto } from '@genhub/contracts/server';
import { buildApiDocument } from './api-document.util';

const root = path.resolve(__dirname, '../../../..');
const libRoot = path.join(root, 'libs/shared/contracts');
const DOCUMENT = 'openapi.json';
const TYPES = 'src/generated/openapi.ts';

/** Regenerates both files in memory (a child process: openapi-typescript is ESM inside). */
function generateInMemory(): Record<string, string> {
  const out = execFileSync('node', ['tools/contracts/generate.cjs', '--print'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out);
}

function check(out?: string) {
  return spawnSync(
    'node',
    ['tools/contracts/generate.cjs', '--check', ...(out ? ['--out', out] : [])],
    { cwd: root, encoding: 'utf8' },
  );
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('the OpenAPI document', () => {
  let document: Json;
  let files: Record<string, string>;

  beforeAll(() => {
    files = generateInMemory();
    document = JSON.parse(files[DOCUMENT]);
  }, 60_000);

  describe('is kept true', () => {
    it('the checked-in openapi.json equals a fresh generation', () => {
      expect(readFileSync(path.join(libRoot, DOCUMENT), 'utf8')).toBe(files[DOCUMENT]);
    });

    it('the checked-in generated types equal a fresh generation', () => {
      expect(readFileSync(path.join(libRoot, TYPES), 'utf8')).toBe(files[TYPES]);
    });

    it('generation is deterministic', async () => {
      expect(JSON.stringify(await buildApiDocument())).toBe(JSON.stringify(document));
    });

    it('`contracts:generate --check` passes on this tree (the CI gate)', () => {
      const run = check();
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
    }, 60_000);

    it('`contracts:generate --check` fails when either file is stale', () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'contracts-stale-'));
      try {
        mkdirSync(path.join(dir, 'src/generated'), { recursive: true });
        cpSync(path.join(libRoot, TYPES), path.join(dir, TYPES));
        const staleDocument = JSON.parse(files[DOCUMENT]);
        delete staleDocument.paths['/v1/balance'];
        writeFileSync(path.join(dir, DOCUMENT), `${JSON.stringify(staleDocument, null, 2)}\n`);
        const staleDoc = check(dir);
        expect(staleDoc.status).toBe(1);
        expect(staleDoc.stderr).toContain('openapi.json');
        expect(staleDoc.stderr).not.toContain('openapi.ts');

        writeFileSync(path.join(dir, DOCUMENT), files[DOCUMENT]);
        writeFileSync(
          path.join(dir, TYPES),
          files[TYPES].replace('queue_wait: number', 'queue_wait: string'),
        );
        const staleTypes = check(dir);
        expect(staleTypes.status).toBe(1);
        expect(staleTypes.stderr).toContain('src/generated/openapi.ts');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);

    it('validates with Redocly (recommended-strict: zero problems)', () => {
      const out = execFileSync('node', ['tools/contracts/lint-openapi.cjs', '--json'], {
        cwd: root,
        encoding: 'utf8',
      });
      expect(JSON.parse(out)).toEqual([]);
    }, 60_000);

    it('the validator does reject a broken document', () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'contracts-broken-'));
      const broken = path.join(dir, 'openapi.json');
      const copy = JSON.parse(JSON.stringify(document));
      copy.components.schemas.Timings.properties.total.type = 'int';
      writeFileSync(broken, JSON.stringify(copy));
      const run = spawnSync('node', ['tools/contracts/lint-openapi.cjs', '--json', broken], {
        cwd: root,
        encoding: 'utf8',
      });
      expect(run.status).toBe(1);
      expect(JSON.parse(run.stdout)).toEqual(
        expect.arrayContaining([expect.objectContaining({ rule: 'struct', severity: 'error' })]),
      );
      rmSync(dir, { recursive: true, force: true });
    }, 60_000);
  });

  const schema = (name: string): Json => document.components.schemas[name];
  const keys = (name: string): string[] => Object.keys(schema(name).properties);

  it("carries the package's version", () => {
    const pkg = JSON.parse(readFileSync(path.join(libRoot, 'package.json'), 'utf8'));
    expect(document.info.version).toBe(pkg.version);
  });

  it('is OpenAPI 3.0 with the API-key bearer scheme by default and the admin one on /admin', () => {
    expect(document.openapi).toBe('3.0.3');
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(document.components.securitySchemes.adminBearer).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    for (const [p, item] of Object.entries(document.paths))
      for (const operation of Object.values(item as Json))
        expect([p, operation.security]).toEqual([
          p,
          p.startsWith('/admin/')
            ? [{ adminBearer: [] }]
            : p.endsWith('/events')
              ? [{ bearerAuth: [] }, { eventsToken: [] }]
              : undefined,
        ]);
  });

  it('covers every public endpoint', () => {
    const operations = Object.entries(document.paths).flatMap(([p, item]) =>
      Object.keys(item as Json).map((method) => `${method.toUpperCase()} ${p}`),
    );
    expect(operations.sort()).toEqual(
      [
        'POST /v1/{provider_id}/{model_id}/{run_type}',
        'POST /v1/local/simulator/test',
        'POST /v1/local/image/text-to-image',
        'POST /v1/local/speech/text-to-speech',
        'POST /v1/local/video/image-to-video',
        'POST /v1/local/video/text-to-video',
        'GET /v1/requests/{request_id}',
        'POST /api/v3/{provider_id}/{model_id}/{run_type}',
        'GET /api/v3/predictions/{task_id}/result',
        'GET /api/v3/predictions',
        'GET /api/v3/predictions/{task_id}/events',
        'POST /api/v3/predictions/{task_id}/events/token',
        'POST /api/v3/media/uploads',
        'GET /v1/balance',
        'GET /api/v3/models',
        'GET /api/v3/billings',
        'GET /api/v3/billings/export',
        'GET /api/v3/usage',
        'DELETE /api/v3/predictions/{task_id}',
        'GET /api/v3/predictions/{task_id}/webhook-deliveries',
        'POST /api/v3/files/upload',
        'POST /v1/chat/completions',
        'POST /v1/images/generations',
        'POST /v1/audio/speech',
        'POST /v1/audio/transcriptions',
        'GET /v1/models',
        'GET /v1/models/{model}',
        'POST /replicate/v1/models/{owner}/{name}/predictions',
        'POST /replicate/v1/predictions',
        'GET /replicate/v1/predictions',
        'GET /replicate/v1/predictions/{id}',
        'POST /replicate/v1/predictions/{id}/cancel',
        'GET /replicate/v1/models/{owner}/{name}',
        'GET /replicate/v1/models/{owner}/{name}/versions',
        'GET /replicate/v1/models/{owner}/{name}/versions/{version}',
        'GET /replicate/v1/webhooks/default/secret',
        'POST /admin/v1/accounts',
        'GET /admin/v1/accounts',
        'GET /admin/v1/accounts/{id}',
        'PATCH /admin/v1/accounts/{id}',
        'POST /admin/v1/accounts/{id}/api-keys',
        'GET /admin/v1/accounts/{id}/api-keys',
        'PATCH /admin/v1/accounts/{id}/api-keys/{key_id}',
        'DELETE /admin/v1/api-keys/{keyId}',
        'GET /api/v3/keys',
        'POST /api/v3/keys',
        'PATCH /api/v3/keys/{key_id}',
        'DELETE /api/v3/keys/{key_id}',
        'POST /admin/v1/accounts/{id}/top-ups',
        'POST /admin/v1/accounts/{id}/suspend',
        'POST /admin/v1/accounts/{id}/unsuspend',
        'POST /admin/v1/accounts/{id}/webhook-secret',
        'GET /admin/v1/queue/accounts',
      ].sort(),
    );
  });

  it('gives the result shapes and the webhook payload their exact, closed key sets', () => {
    expect(keys('SubmitAck')).toEqual(['id', 'status', 'estimated_duration']);
    expect(keys('TaskProcessingResult')).toEqual(['id', 'status']);
    expect(keys('TaskCompletedResult')).toEqual([
      'id',
      'model',
      'status',
      'code',
      'outputs',
      'timings',
      'error',
      'created_at',
    ]);
    expect(keys('TaskFailedResult')).toEqual([
      'id',
      'model',
      'status',
      'code',
      'outputs',
      'error',
      'created_at',
    ]);
    expect(keys('Timings')).toEqual([
      'queue_wait',
      'worker_init',
      'api_call',
      'save',
      'run_overhead',
      'total',
    ]);
    expect(keys('WebhookPayload')).toEqual([
      'id',
      'model',
      'status',
      'code',
      'created_at',
      'input',
      'outputs',
      'error',
    ]);
    for (const name of [
      'SubmitAck',
      'TaskProcessingResult',
      'TaskCompletedResult',
      'TaskFailedResult',
      'WebhookPayload',
    ]) {
      expect(schema(name).additionalProperties).toBe(false);
      expect([...schema(name).required].sort()).toEqual(keys(name).sort());
    }
    expect(schema('TaskFailedResult').properties.code.enum).toEqual([...TASK_FAILURE_CODES]);
  });

  it('documents the result endpoint with Retry-After and the three shapes', () => {
    const ok = document.paths['/v1/requests/{request_id}'].get.responses['200'];
    expect(ok.headers['Retry-After'].schema).toEqual({ enum: [3], type: 'integer' });
    expect(ok.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/TaskResult',
    });
    expect(schema('TaskResult').oneOf).toHaveLength(3);
  });

  it('makes every model input a component and the submit body, with the webhook callback', () => {
    const submit = document.paths['/v1/{provider_id}/{model_id}/{run_type}'].post;
    const inputRefs = MODEL_INPUT_CLASSES.map((dto) => getSchemaPath(dto));
    expect(inputRefs).toContain('#/components/schemas/SimulatorInput');
    for (const inputRef of inputRefs) {
      const name = inputRef.split('/').pop() as string;
      expect([name, schema(name)?.additionalProperties]).toEqual([name, false]);
    }
    expect(CONTRACT_MODELS).toEqual(expect.arrayContaining([SimulatorInputDto]));
    const body = submit.requestBody.content['application/json'].schema;
    // One input: the body is that schema; several: `SubmitBody` is their anyOf.
    const bodyRefs =
      inputRefs.length === 1 ? [body.$ref] : schema('SubmitBody').anyOf.map((r: Json) => r.$ref);
    expect(bodyRefs).toEqual(inputRefs);
    // Models with a path of their own get their exact input schema there.
    expect(
      document.paths['/v1/local/simulator/test'].post.requestBody.content['application/json']
        .schema,
    ).toEqual({ $ref: '#/components/schemas/SimulatorInput' });
    expect(keys('SimulatorInput')).toEqual(
      expect.arrayContaining(['prompt', 'duration_ms', 'fail_code', 'num_outputs', 'image_url']),
    );
    expect(schema('SimulatorInput').required).toEqual(['prompt']);
    expect(schema('SimulatorInput').properties.duration_ms).toMatchObject({
      minimum: 0,
      maximum: 600000,
    });
    const callback = submit.callbacks.taskFinished['{$request.query.webhook}'].post;
    expect(callback.parameters.map((p: Json) => `${p.in}:${p.name}`)).toEqual([
      'header:webhook-id',
      'header:webhook-timestamp',
      'header:webhook-signature',
    ]);
    expect(callback.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/WebhookPayload',
    );
    expect(submit.parameters.map((p: Json) => `${p.in}:${p.name}`)).toEqual([
      'path:provider_id',
      'path:model_id',
      'path:run_type',
      'header:idempotency-key',
      'query:sync',
      'query:webhook',
      'query:prefix',
    ]);
    // The per-model paths take the same query and header, no path parameters.
    expect(
      document.paths['/v1/local/simulator/test'].post.parameters.map((p: Json) => p.name),
    ).toEqual(['idempotency-key', 'sync', 'webhook', 'prefix']);
  });

  it('lists every error status with its exact bodies, per response family', () => {
    const submit = document.paths['/v1/{provider_id}/{model_id}/{run_type}'].post.responses;
    expect(Object.keys(submit)).toEqual(['200', '400', '401', '402', '403', '404', '500']);
    const examples = (name: string) =>
      Object.values(document.components.responses[name].content['application/json'].examples).map(
        (example) => (example as Json).value,
      );
    expect(examples('V1Unauthorized')).toEqual([
      { code: 401, error: APP_ERRORS.missing_authorization.message },
      { code: 401, error: 'Invalid Authorization format, expected: Bearer <api_key>' },
      { code: 401, error: 'Invalid or revoked API key' },
    ]);
    expect(examples('V1BadRequest')[1]).toEqual({
      code: 400,
      error: { code: 1401, error: expect.stringContaining('{provider_id}/{model_id}/{run_type}') },
    });
    expect(examples('V1PaymentRequired')[0].error.error).toMatch(
      /^Insufficient balance\. Current: \$\d+\.\d{3}, required: \$\d+\.\d{3}\. Please top up and try again\.$/,
    );
    expect(examples('V1NotFound')).toEqual([{ code: 404, error: 'Not found' }]);
    expect(examples('V1ServerError')).toEqual([{ code: 500, error: 'Server error' }]);
    expect(examples('V3NotFound')).toEqual([{ code: 404, message: 'Not found', data: null }]);
    const chat = document.paths['/v1/chat/completions'].post.responses;
    expect(chat['401'].$ref).toBe('#/components/responses/V1Unauthorized');
    expect(chat['400'].$ref).toBe('#/components/responses/ChatBadRequest');
    expect(keys('ChatErrorDetail')).toEqual(['message', 'type', 'param', 'code']);
    // The media routes (decision 0136): the chat family, with the wait that ran out.
    const speech = document.paths['/v1/audio/speech'].post.responses;
    expect(speech['504'].$ref).toBe('#/components/responses/ChatGatewayTimeout');
    expect(examples('ChatGatewayTimeout')[0].error).toMatchObject({
      type: 'server_error',
      code: 'sync_wait_expired',
    });
    expect(Object.keys(speech['200'].content)).toEqual(['audio/wav']);
  });

  it('documents the admin API (docs/interface.md, "Admin API") with its bodies and answers', () => {
    const create = document.paths['/admin/v1/accounts'].post;
    expect(create.requestBody).toEqual({
      required: false,
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/AdminCreateAccountRequest' } },
      },
    });
    expect(Object.keys(create.responses)).toEqual(['201', '400', '401', '404', '500']);
    expect(create.responses['401'].$ref).toBe('#/components/responses/AdminUnauthorized');
    expect(keys('AdminCreateAccountRequest')).toEqual(['currency', 'account_level', 'balance']);
    expect(schema('AdminCreateAccountRequest').required).toBeUndefined();
    expect(keys('AdminAccount')).toEqual([
      'id',
      'currency',
      'account_level',
      'balance',
      'reserved',
      'status',
      'max_concurrent_tasks',
      'webhook_secret',
    ]);
    expect(schema('AdminAccount').required).not.toContain('webhook_secret');
    expect(schema('AdminAccount').required).toContain('max_concurrent_tasks');
    // Issue 36: the operator's optional cap, null (no cap) by default, changed by PATCH.
    expect(schema('AdminAccount').properties.max_concurrent_tasks).toMatchObject({
      type: 'integer',
      nullable: true,
      minimum: 1,
      maximum: 10_000,
    });
    const update = document.paths['/admin/v1/accounts/{id}'].patch;
    expect(update.operationId).toBe('adminUpdateAccount');
    expect(Object.keys(update.responses)).toEqual(['200', '400', '401', '404', '500']);
    expect(update.responses['400'].$ref).toBe('#/components/responses/AdminBadRequest');
    expect(update.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/AdminUpdateAccountRequest',
    );
    expect(keys('AdminUpdateAccountRequest')).toEqual(['account_level', 'max_concurrent_tasks']);
    expect(schema('AdminUpdateAccountRequest').required).toBeUndefined();
    expect(schema('AdminUpdateAccountRequest').additionalProperties).toBe(false);
    expect(schema('AdminTopUpRequest').required).toEqual(['amount']);
    const topUp = document.paths['/admin/v1/accounts/{id}/top-ups'].post;
    expect(topUp.responses['201'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/BillingRecord',
    );
    // A key with its settings and spend (issue 37), and the plain key once.
    expect(keys('AdminIssuedApiKey')).toEqual([...keys('ApiKey'), 'key']);
    expect(keys('AdminRevokedApiKey')).toEqual(['id', 'status']);
    expect(keys('AdminRotatedWebhookSecret')).toEqual(['id', 'webhook_secret']);
  });

  it("documents the console's admin lists (decision 0116)", () => {
    const list = document.paths['/admin/v1/accounts'].get;
    expect(list.operationId).toBe('adminListAccounts');
    expect(Object.keys(list.responses)).toEqual(['200', '400', '401', '404', '500']);
    expect(list.responses['400'].$ref).toBe('#/components/responses/AdminBadRequest');
    expect(list.responses['200'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/AdminAccountPage',
    );
    expect(
      list.parameters.map((p: Json) => [p.name, p.in, p.required, p.schema.enum ?? p.schema.type]),
    ).toEqual(
      expect.arrayContaining([
        ['status', 'query', false, ['active', 'suspended']],
        ['cursor', 'query', false, 'string'],
        ['limit', 'query', false, 'integer'],
      ]),
    );
    expect(list.parameters).toHaveLength(3);
    expect(keys('AdminAccountPage')).toEqual(['data', 'next_cursor']);
    expect(schema('AdminAccountPage').properties.data.items.$ref).toBe(
      '#/components/schemas/AdminAccount',
    );
    const apiKeys = document.paths['/admin/v1/accounts/{id}/api-keys'].get;
    expect(apiKeys.operationId).toBe('adminListApiKeys');
    expect(Object.keys(apiKeys.responses)).toEqual(['200', '401', '404', '500']);
    expect(keys('AdminApiKeyList')).toEqual(['data']);
    expect(keys('AdminApiKey')).toEqual([
      'id',
      'name',
      'prefix',
      'status',
      'allowed_models',
      'spend_limit',
      'spent',
      'expires_at',
      'scopes',
      'created_at',
      'revoked_at',
      'last_used_at',
    ]);
    for (const name of ['AdminAccountPage', 'AdminApiKey', 'AdminApiKeyList']) {
      expect(schema(name).additionalProperties).toBe(false);
      expect([...schema(name).required].sort()).toEqual(keys(name).sort());
    }
  });

  it('documents the queue by account (issue 36)', () => {
    const list = document.paths['/admin/v1/queue/accounts'].get;
    expect(list.operationId).toBe('adminListQueueAccounts');
    expect(Object.keys(list.responses)).toEqual(['200', '400', '401', '404', '500']);
    expect(list.responses['200'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/AdminQueueAccountPage',
    );
    expect(list.parameters.map((p: Json) => [p.name, p.in, p.required, p.schema.type])).toEqual(
      expect.arrayContaining([
        ['cursor', 'query', false, 'string'],
        ['limit', 'query', false, 'integer'],
      ]),
    );
    expect(list.parameters).toHaveLength(2);
    expect(keys('AdminQueueAccountPage')).toEqual(['data', 'next_cursor', 'totals']);
    expect(keys('AdminQueueAccount')).toEqual([
      'account_id',
      'waiting',
      'running',
      'oldest_waiting_at',
    ]);
    expect(keys('AdminQueueTotals')).toEqual(['waiting', 'running', 'accounts']);
    for (const name of ['AdminQueueAccountPage', 'AdminQueueAccount', 'AdminQueueTotals']) {
      expect(schema(name).additionalProperties).toBe(false);
      expect([...schema(name).required].sort()).toEqual(keys(name).sort());
    }
  });

  it('describes the webhook delivery log as the gateway answers it', () => {
    expect(keys('WebhookDelivery')).toEqual([
      'task_id',
      'url',
      'status',
      'created_at',
      'delivered_at',
      'attempts',
    ]);
    expect(keys('WebhookDeliveryAttempt')).toEqual([
      'attempt',
      'started_at',
      'status_code',
      'error',
      'duration_ms',
    ]);
    expect(schema('WebhookDeliveriesResponse').properties.data).toEqual({
      $ref: '#/components/schemas/WebhookDelivery',
    });
  });

  it('wraps /api/v3 answers in the envelope and documents the special bodies', () => {
    const models = document.paths['/api/v3/models'].get.responses['200'];
    expect(models.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ModelListResponse',
    );
    expect(schema('ModelListResponse').properties).toEqual({
      code: { enum: [200], type: 'integer' },
      message: { enum: ['success'], type: 'string' },
      data: { items: { $ref: '#/components/schemas/ModelEntry' }, type: 'array' },
    });
    expect(
      Object.keys(document.paths['/api/v3/billings/export'].get.responses['200'].content),
    ).toEqual(['text/csv']);
    const upload = document.paths['/api/v3/files/upload'].post.requestBody.content;
    expect(Object.keys(upload)).toEqual(['multipart/form-data']);
    expect(schema('UploadFileBody').properties.file).toMatchObject({
      type: 'string',
      format: 'binary',
    });
    expect(document.paths['/api/v3/billings'].get.parameters.map((p: Json) => p.name)).toEqual([
      'page',
      'per_page',
      'type',
      'api_key_id',
    ]);
    // Per-key usage (issue 37): the three billing reads take the key's id, a UUID.
    for (const path of ['/api/v3/billings', '/api/v3/usage', '/api/v3/billings/export'])
      expect(
        document.paths[path].get.parameters.find((p: Json) => p.name === 'api_key_id'),
      ).toMatchObject({ in: 'query', required: false, schema: { format: 'uuid' } });
  });
});
