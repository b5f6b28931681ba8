import { applyDecorators } from '@nestjs/common';
import {
  ApiExtension,
  ApiOperation,
  ApiResponse,
  type ApiResponseOptions,
  ApiSecurity,
  type OperationObject,
} from '@nestjs/swagger';
import {
  ERROR_RESPONSE_NAMES,
  type ErrorStatus,
  type ResponseFamily,
} from './error-responses.constants';

/** The tags of the document, in the order a reader meets them (document-config.util.ts). */
export type ApiTagName =
  'Tasks' | 'Account' | 'Models' | 'Billing' | 'Files' | 'Webhooks' | 'Chat' | 'Admin';

/** What a route states about itself in the OpenAPI document. */
export interface ApiRouteDoc<Family extends ResponseFamily> {
  /** The operation id: the typed client's name for the route. Never change it lightly. */
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: ApiTagName;
  /** The success answer (status 200 unless given): description and body. */
  readonly ok: ApiResponseOptions;
  /** Every error status the route answers; the family supplies the exact bodies. */
  readonly errors: readonly ErrorStatus<Family>[];
  /** Further fields of the operation (e.g. `callbacks`). */
  readonly operation?: Partial<OperationObject>;
}

/**
 * Marks an operation as documented by one of the decorators below; the
 * document's finishing step refuses a public route without it, then drops it.
 */
export const RESPONSE_FAMILY_EXTENSION = 'x-response-family';

function documentedRoute<Family extends ResponseFamily>(
  family: Family,
  doc: ApiRouteDoc<Family>,
  ...more: MethodDecorator[]
): MethodDecorator {
  const errorNames: Record<number, string> = ERROR_RESPONSE_NAMES[family];
  return applyDecorators(
    ApiOperation({
      operationId: doc.operationId,
      summary: doc.summary,
      ...(doc.description ? { description: doc.description } : {}),
      tags: [doc.tag],
      ...doc.operation,
    }),
    ApiResponse({ status: 200, ...doc.ok } as ApiResponseOptions),
    // A reference to the family's reusable response: swagger passes it through as written.
    ...doc.errors.map((status) =>
      ApiResponse({
        status: Number(status),
        $ref: `#/components/responses/${errorNames[Number(status)]}`,
      } as ApiResponseOptions),
    ),
    ApiExtension(RESPONSE_FAMILY_EXTENSION, family),
    ...more,
  );
}

/**
 * A `/v1/` route: bare JSON objects, `{code, error}` errors (docs/interface.md,
 * "HTTP error bodies").
 */
export const V1Route = (doc: ApiRouteDoc<'v1'>): MethodDecorator => documentedRoute('v1', doc);

/** An `/api/v3/` route: `{code, message, data}` answers (give `ok` an envelope DTO) and errors. */
export const V3Route = (doc: ApiRouteDoc<'v3'>): MethodDecorator => documentedRoute('v3', doc);

/** An OpenAI-compatible chat route: OpenAI's shapes and `{error: {message, type, param}}` errors. */
export const ChatRoute = (doc: ApiRouteDoc<'chat'>): MethodDecorator =>
  documentedRoute('chat', doc);

/**
 * An admin route (docs/interface.md, "Admin API"): its own bearer token, bare JSON,
 * `{code, error}` errors.
 */
export const AdminRoute = (doc: ApiRouteDoc<'admin'>): MethodDecorator =>
  documentedRoute('admin', doc, ApiSecurity('adminBearer'));
