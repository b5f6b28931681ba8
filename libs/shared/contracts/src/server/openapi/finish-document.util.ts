import type { OpenAPIObject, OperationObject, PathsObject, SchemaObject } from '@nestjs/swagger';
import { API_ENVELOPES } from '../dtos/envelopes.dto';
import { RESPONSE_FAMILY_EXTENSION } from './api-route.decorator';
import { compositeSchemas } from './composite-schemas.constants';
import { MODEL_INPUT_CLASSES, MODEL_SUBMIT_PATHS, schemaName } from './contract-models.constants';
import { ref } from './error-responses.constants';
import { taskFinishedCallback } from './webhook-callback.constants';

/** Schemas whose key list is exhaustive (docs/interface.md, "Exact shapes"). */
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
  'AdminUpdateAccountRequest',
  'AdminAccount',
  'AdminIssuedApiKey',
  'AdminRevokedApiKey',
  'AdminRotatedWebhookSecret',
  'AdminAccountPage',
  'AdminApiKey',
  'AdminApiKeyList',
  'AdminQueueAccount',
  'AdminQueueTotals',
  'AdminQueueAccountPage',
  'Prediction',
  'PredictionUrls',
  'PredictionTimings',
  'MediaUploadRequest',
  'MediaUploadInstruction',
  'MediaUploadTicket',
  'TaskListItem',
  'TaskListPage',
  'TaskEventsToken',
  'TaskQueueEvent',
  ...API_ENVELOPES.map((dto) => schemaName(dto as new () => object)),
  ...MODEL_INPUT_CLASSES.map(schemaName),
];

/** The route every model answers on; its per-model copies carry exact body types. */
const SLUG_SUBMIT = { path: '/v1/{provider_id}/{model_id}/{run_type}', method: 'post' } as const;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function* operations(paths: PathsObject): Generator<[string, string, OperationObject]> {
  for (const [path, item] of Object.entries(paths))
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) yield [path, method, operation];
    }
}

/**
 * Every public route states its family (`@V1Route`, `@V3Route`, `@ChatRoute`,
 * `@AdminRoute`), so none reaches the document half-described; the marker
 * has done its job once checked.
 */
function requireDocumentedRoutes(paths: PathsObject): void {
  for (const [path, method, operation] of operations(paths)) {
    const marked = operation as OperationObject & Record<string, unknown>;
    if (!marked[RESPONSE_FAMILY_EXTENSION])
      throw new Error(
        `${method.toUpperCase()} ${path} is served but not documented: give it @V1Route, @V3Route, @ChatRoute, @ReplicateRoute or @AdminRoute, or exclude its controller with @ApiExcludeController`,
      );
    delete marked[RESPONSE_FAMILY_EXTENSION];
  }
}

/**
 * Fastify's trailing wildcard (`v1/models/*`, for ids that hold slashes) reads
 * as `{*}`; the route's documented path parameter gives it its name.
 */
function nameWildcards(paths: PathsObject): void {
  for (const [path, item] of Object.entries(paths)) {
    const wildcard = /\{(\*|path)\}$/;
    if (!wildcard.test(path)) continue;
    const named = METHODS.flatMap((method) => item[method]?.parameters ?? []).find(
      (parameter) =>
        'in' in parameter && parameter.in === 'path' && !['path', '*'].includes(parameter.name),
    );
    if (!named || !('name' in named)) continue;
    for (const method of METHODS)
      if (item[method])
        item[method].parameters = item[method].parameters?.filter(
          (parameter) => !('name' in parameter) || !['path', '*'].includes(parameter.name),
        );
    delete paths[path];
    paths[path.replace(wildcard, `{${named.name}}`)] = item;
  }
}

/**
 * A reference to a reusable response stands alone (swagger adds an empty
 * description beside it), and an operation without parameters lists none.
 */
function tidyOperations(paths: PathsObject): void {
  for (const [, , operation] of operations(paths)) {
    for (const [status, response] of Object.entries(operation.responses ?? {}))
      if (response && '$ref' in response) operation.responses[status] = { $ref: response.$ref };
    if (operation.parameters?.length === 0) delete operation.parameters;
  }
}

/**
 * Only the schemas something references: the query DTOs, for one, are
 * documented as parameters, and their components would be orphans.
 */
function dropUnreferencedSchemas(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  const referenced = (value: unknown): string[] =>
    [...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
  const { schemas: _all, ...rest } = document.components ?? {};
  const reached = new Set(referenced({ ...document, components: rest }));
  for (const name of reached) for (const next of referenced(schemas[name])) reached.add(next);
  for (const name of Object.keys(schemas)) if (!reached.has(name)) delete schemas[name];
}

/** The slug route written out for each model whose input the contracts know. */
function addModelSubmitPaths(paths: PathsObject): void {
  const template = paths[SLUG_SUBMIT.path]?.[SLUG_SUBMIT.method];
  if (!template) throw new Error(`the document has no ${SLUG_SUBMIT.path}`);
  for (const model of MODEL_SUBMIT_PATHS) {
    const operationId = `submit${model.name.replace(/[^A-Za-z0-9]/g, '')}Task`;
    paths[`/v1/${model.slug}`] = {
      post: {
        ...template,
        operationId,
        summary: `Submit a task to ${model.slug}`,
        description: model.description,
        parameters: template.parameters?.filter(
          (parameter) => !('in' in parameter) || parameter.in !== 'path',
        ),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref(schemaName(model.input)) } },
        },
        callbacks: taskFinishedCallback(operationId),
      },
    };
  }
}

/**
 * Swagger attaches a named enum as `{allOf: [{$ref}]}`; alone, the reference
 * says the same (and validators refuse a one-schema `allOf`).
 */
function unwrapLoneAllOf<T>(value: T): T {
  if (Array.isArray(value)) return value.map(unwrapLoneAllOf) as T;
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 1 && Array.isArray(record.allOf) && record.allOf.length === 1)
    return unwrapLoneAllOf(record.allOf[0]) as T;
  return Object.fromEntries(keys.map((key) => [key, unwrapLoneAllOf(record[key])])) as T;
}

/** Orders object keys recursively so the document is byte-stable. */
function sortKeys<T>(value: T, path: string[] = []): T {
  if (Array.isArray(value)) return value.map((item) => sortKeys(item, path)) as T;
  if (value === null || typeof value !== 'object') return value;
  // Properties, responses and examples keep their authored order (it reads better).
  const keepOrder = ['properties', 'responses', 'examples'].includes(path[path.length - 1] ?? '');
  const entries = Object.entries(value as Record<string, unknown>);
  if (!keepOrder) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v, [...path, k])])) as T;
}

/**
 * The one step between what @nestjs/swagger derives from the controllers and
 * DTOs and the checked-in document: it adds what decorators cannot say (closed
 * key lists, the "one of" schemas, the per-model submit paths) and makes the
 * text byte-stable.
 */
export function finishOpenApiDocument(generated: OpenAPIObject): OpenAPIObject {
  const paths = generated.paths;
  requireDocumentedRoutes(paths);
  nameWildcards(paths);
  tidyOperations(paths);
  addModelSubmitPaths(paths);
  const schemas = (generated.components?.schemas ?? {}) as Record<string, SchemaObject>;
  for (const name of CLOSED_SCHEMAS) {
    if (!schemas[name]) throw new Error(`schema ${name} missing from the DTOs`);
    schemas[name].additionalProperties = false;
  }
  Object.assign(schemas, compositeSchemas());
  const document = { ...generated, components: { ...generated.components, schemas } };
  dropUnreferencedSchemas(document);
  return sortKeys(unwrapLoneAllOf(document));
}
