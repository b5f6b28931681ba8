import { SetMetadata } from '@nestjs/common';
import type { ApiKeyScope } from '@genhub/contracts/server';

/** Metadata the API-key guard reads: the scope a route needs, or NO_SCOPE. */
export const API_KEY_SCOPE_METADATA = 'genhub:api-key-scope';
/** A route any valid key may call (the model listings): marked, so none is left out by mistake. */
export const NO_SCOPE = 'none';
export type RouteScope = ApiKeyScope | typeof NO_SCOPE;

/**
 * The scope a key needs to call this route (issue 37): without it the API-key
 * guard answers 403 scope_not_allowed. Every route behind the guard carries
 * one (a spec walks the controllers).
 */
export const RequiresScope = (scope: ApiKeyScope) => SetMetadata(API_KEY_SCOPE_METADATA, scope);

/** The route needs a valid key and nothing more. */
export const AnyValidKey = () => SetMetadata(API_KEY_SCOPE_METADATA, NO_SCOPE);
