import type { UpstreamSettings } from '../../config/providers-file.types';
import { AdapterError, type RunContext } from '../../contract/model-adapter.types';
import { describeTlsFailure, tlsFailureOf } from '@genhub/config';
import { TaskCode } from '@genhub/errors';
import { outboundFetch } from '@genhub/outbound';

/** A complete upstream answer (the body is read inside the time limit). */
export interface UpstreamAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

export interface UpstreamCall {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers?: Record<string, string>;
  body?: string | FormData;
  /** The run's signal (task deleted, task time limit): its reason is rethrown untouched. */
  signal: AbortSignal;
  /** Limit of this one request, body included → AdapterError 5004. */
  timeoutMs: number;
  /** Turns a non-2xx answer into the provider's AdapterError. */
  onError(answer: UpstreamAnswer): AdapterError;
}

/**
 * One upstream HTTP request with global fetch: the run's signal combined with
 * a per-request limit. Connection failures → 5003, the limit → 5004 (both
 * transient, so the worker falls over to the next route).
 */
export async function callUpstream(call: UpstreamCall): Promise<UpstreamAnswer> {
  const limit = AbortSignal.timeout(call.timeoutMs);
  const signal = AbortSignal.any([call.signal, limit]);
  let answer: UpstreamAnswer;
  try {
    const res = await outboundFetch(call.url, {
      method: call.method,
      headers: call.headers,
      body: call.body,
      signal,
      // A redirect could carry our key elsewhere.
      redirect: 'error',
    });
    answer = {
      status: res.status,
      headers: res.headers,
      body: Buffer.from(await res.arrayBuffer()),
    };
  } catch (error) {
    if (call.signal.aborted) throw call.signal.reason;
    if (limit.aborted)
      throw new AdapterError(
        TaskCode.Timeout,
        `upstream did not answer within ${call.timeoutMs} ms`,
      );
    throw new AdapterError(TaskCode.ServiceUnavailable, `upstream unreachable (${causeOf(error)})`);
  }
  if (answer.status < 200 || answer.status > 299) throw call.onError(answer);
  return answer;
}

/** The JSON of an answer, or undefined when it is not JSON. */
export function jsonOf(answer: UpstreamAnswer): unknown {
  try {
    return JSON.parse(answer.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A 2xx answer that must be a JSON object; anything else is an upstream fault (5003). */
export function objectOf(answer: UpstreamAnswer): Record<string, unknown> {
  const value = jsonOf(answer);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new AdapterError(TaskCode.ServiceUnavailable, 'upstream answered an unexpected body');
  return value as Record<string, unknown>;
}

/**
 * Upstreams hand us URLs to poll and cancel; we send our key there, so they
 * must stay on the configured origin.
 */
export function sameOrigin(url: unknown, base: string): string {
  if (typeof url === 'string') {
    try {
      if (new URL(url).origin === new URL(base).origin) return url;
    } catch {
      // fall through
    }
  }
  throw new AdapterError(
    TaskCode.ServiceUnavailable,
    'upstream answered a URL outside its base URL',
  );
}

function causeOf(error: unknown): string {
  // An upstream whose certificate we do not trust: say so (OUTBOUND_TLS_CA may add its CA).
  const tls = tlsFailureOf(error);
  if (tls) return describeTlsFailure(tls);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** How a provider wants its key: `Authorization: <scheme> <key>`. */
export type AuthScheme = 'Bearer' | 'Key';

/** One JSON call to a bound upstream: method, absolute URL, optional body object. */
export type JsonUpstream = (
  ctx: Pick<RunContext, 'signal'>,
  method: UpstreamCall['method'],
  url: string,
  body?: object,
) => Promise<Record<string, unknown>>;

/**
 * A JSON requester bound to one upstream account (its key in the provider's
 * scheme, its time limit, its error mapping): the queue-style adapters (fal,
 * Replicate) make every call through one, JSON in and out, so each adapter
 * states only its wire format.
 */
export function jsonUpstream(
  upstream: Pick<UpstreamSettings, 'apiKey' | 'timeoutMs'>,
  scheme: AuthScheme,
  onError: UpstreamCall['onError'],
): JsonUpstream {
  return async (ctx, method, url, body) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (upstream.apiKey) headers.authorization = `${scheme} ${upstream.apiKey}`;
    const answer = await callUpstream({
      method,
      url,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: ctx.signal,
      timeoutMs: upstream.timeoutMs,
      onError,
    });
    return objectOf(answer);
  };
}
