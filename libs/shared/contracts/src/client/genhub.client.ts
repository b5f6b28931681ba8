import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from '../generated/openapi';
import type { TaskCompletedResult, TaskFailedResult } from '../types';
import { sleep } from './sleep.util';

export interface GenhubClientOptions {
  /** The service base address, for example `https://api.example.com`. */
  baseUrl: string;
  /** An API key; sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
  /** A fetch implementation (default: the global `fetch`). */
  fetch?: ClientOptions['fetch'];
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

export type GenhubClient = Client<paths>;

/**
 * A typed client of the public API (openapi-fetch): every path, parameter,
 * body and answer is typed from the OpenAPI document.
 *
 * ```ts
 * const client = createGenhubClient({ baseUrl, apiKey });
 * const { data, error } = await client.POST('/v1/local/simulator/test', { body: { prompt: 'a cat' } });
 * ```
 */
export function createGenhubClient(options: GenhubClientOptions): GenhubClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: options.fetch,
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
  });
}

export interface WaitForResultOptions {
  /** Poll interval when the answer carries no `Retry-After` (default 3000 ms). */
  intervalMs?: number;
  /** Give up after this long (default 15 minutes). */
  timeoutMs?: number;
  /** Stops waiting. */
  signal?: AbortSignal;
  /** Delay before the first poll, e.g. from `estimated_duration` (default 0). */
  initialDelayMs?: number;
}

/** Thrown by `waitForTaskResult` when a poll answers an HTTP error. */
export class GenhubRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`genhub request failed with HTTP ${status}`);
    this.name = 'GenhubRequestError';
  }
}

/**
 * Polls `GET /v1/requests/{id}` until the task is terminal, honouring
 * `Retry-After`. Resolves with the completed or failed result (a failed task
 * is not an exception: read `status` and `code`).
 */
export async function waitForTaskResult(
  client: GenhubClient,
  id: string,
  options: WaitForResultOptions = {},
): Promise<TaskCompletedResult | TaskFailedResult> {
  const { intervalMs = 3000, timeoutMs = 15 * 60_000, signal, initialDelayMs = 0 } = options;
  const deadline = Date.now() + timeoutMs;
  if (initialDelayMs > 0) await sleep(initialDelayMs, signal);
  for (;;) {
    const { data, error, response } = await client.GET('/v1/requests/{request_id}', {
      params: { path: { request_id: id } },
      signal,
    });
    if (error !== undefined || !data) throw new GenhubRequestError(response.status, error);
    if (data.status === 'completed' || data.status === 'failed') return data;
    const retryAfter = Number(response.headers.get('retry-after'));
    const delay = retryAfter > 0 ? retryAfter * 1000 : intervalMs;
    if (Date.now() + delay > deadline) {
      throw new Error(`task ${id} not finished after ${timeoutMs} ms`);
    }
    await sleep(delay, signal);
  }
}
