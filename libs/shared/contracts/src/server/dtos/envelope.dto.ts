/**
 * The `/api/v3/` envelope: `{ code: 200, message: "success", data }`.
 * Generic in `data`; the OpenAPI document names one envelope per payload
 * (`envelopes.dto.ts`).
 */
export interface ApiEnvelopeDto<T> {
  code: 200;
  message: 'success';
  data: T;
}

/** Wraps `data` in the `/api/v3/` envelope: a plain object, no class instance per request. */
export function envelope<T>(data: T): ApiEnvelopeDto<T> {
  return { code: 200, message: 'success', data };
}

/**
 * A query string as the HTTP layer hands it over, keyed by the fields of its
 * contract DTO: each value is still raw (absent, a string, or an array when a
 * parameter is repeated). Controllers that parse a query by hand type it with
 * this, so a misspelt parameter name does not compile, while the global
 * ValidationPipe (which only runs for class parameter types) is not invoked.
 */
export type RawQuery<Dto> = { readonly [Field in keyof Dto]?: unknown };
