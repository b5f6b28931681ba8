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
  APP_ERRORS,
  AppErrorCode,
  REPLICATE_STATUS_OVERRIDES,
  replicateStatus,
} from '@genhub/errors';
import {
  ERROR_RESPONSE_NAMES,
  type ErrorStatus,
  type ResponseFamily,
} from './error-responses.constants';

/** The tags of the document, in the order a reader meets them (document-config.util.ts). */
export type ApiTagName =
  | 'Tasks'
  | 'Account'
  | 'Models'
  | 'Billing'
  | 'Files'
  | 'Webhooks'
  | 'Keys'
  | 'Chat'
  | 'Replicate'
  | 'Admin';

/** A code's status in a family: the catalogue's, but bad input is 422 on the Replicate routes. */
type FamilyStatus<
  Family extends ResponseFamily,
  Code extends AppErrorCode,
> = Family extends 'replicate'
  ? Code extends keyof typeof REPLICATE_STATUS_OVERRIDES
    ? (typeof REPLICATE_STATUS_OVERRIDES)[Code]
    : (typeof APP_ERRORS)[Code]['status']
  : (typeof APP_ERRORS)[Code]['status'];

/** The catalogue codes whose status the family documents (error-responses.constants.ts). */
export type RouteErrorCode<Family extends ResponseFamily> = {
  [Code in AppErrorCode]: FamilyStatus<Family, Code> extends ErrorStatus<Family> ? Code : never;
}[AppErrorCode];

/** What a route states about itself in the OpenAPI document. */
export interface ApiRouteDoc<Family extends ResponseFamily> {
  /** The operation id: the typed client's name for the route. Never change it lightly. */
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: ApiTagName;
  /** The success answer (status 200 unless given): description and body. */
  readonly ok: ApiResponseOptions;
  /**
   * The catalogue errors the route raises itself, beyond those of every route of its
   * family (`FAMILY_ERRORS`). Their statuses come from the catalogue, their bodies from
   * the family.
   */
  readonly errors?: readonly RouteErrorCode<Family>[];
  /** Further fields of the operation (e.g. `callbacks`). */
  readonly operation?: Partial<OperationObject>;
}

/** The refusals of the API-key guard, and the unexpected error: every public route can answer them. */
const API_KEY_ROUTE_ERRORS = [
  AppErrorCode.MissingAuthorization,
  AppErrorCode.InvalidAuthorizationFormat,
  AppErrorCode.InvalidApiKey,
  AppErrorCode.AccountSuspended,
  AppErrorCode.Internal,
] as const;

/** What every route of a family can answer, whatever it does. */
export const FAMILY_ERRORS = {
  v1: API_KEY_ROUTE_ERRORS,
  v3: API_KEY_ROUTE_ERRORS,
  chat: API_KEY_ROUTE_ERRORS,
  replicate: API_KEY_ROUTE_ERRORS,
  // The admin token's refusals (a wrong token is `invalid_api_key` with its own message),
  // and 404 for every admin route while ADMIN_TOKEN is unset.
  admin: [
    AppErrorCode.MissingAuthorization,
    AppErrorCode.InvalidAuthorizationFormat,
    AppErrorCode.InvalidApiKey,
    AppErrorCode.NotFound,
    AppErrorCode.Internal,
  ],
} as const satisfies { [Family in ResponseFamily]: readonly RouteErrorCode<Family>[] };

/** The error statuses a route documents: those of its family's and its own errors, ascending. */
export function routeErrorStatuses<Family extends ResponseFamily>(
  family: Family,
  errors: readonly RouteErrorCode<Family>[] = [],
): number[] {
  const codes: readonly AppErrorCode[] = [...FAMILY_ERRORS[family], ...errors];
  const statusOf = (code: AppErrorCode) =>
    family === 'replicate' ? replicateStatus(code) : APP_ERRORS[code].status;
  return [...new Set(codes.map(statusOf))].sort((a, b) => a - b);
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
    ...routeErrorStatuses(family, doc.errors).map((status) =>
      ApiResponse({
        status,
        $ref: `#/components/responses/${errorNames[status]}`,
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
 * A Replicate-compatible route (`/replicate/v1`, decision 0137): Replicate's shapes and
 * `{title, detail, status}` errors.
 */
export const ReplicateRoute = (doc: ApiRouteDoc<'replicate'>): MethodDecorator =>
  documentedRoute('replicate', doc);

/**
 * An admin route (docs/interface.md, "Admin API"): its own bearer token, bare JSON,
 * `{code, error}` errors.
 */
export const AdminRoute = (doc: ApiRouteDoc<'admin'>): MethodDecorator =>
  documentedRoute('admin', doc, ApiSecurity('adminBearer'));
