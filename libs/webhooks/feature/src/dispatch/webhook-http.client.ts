import { isIP } from 'node:net';
import { Agent } from 'undici';
import { describeTlsFailure, tlsFailureOf } from '@genhub/config';
import { guardedLookup, isPrivateAddress } from '@genhub/outbound';

export interface HttpAttemptResult {
  /** The receiver's status code when it answered (any status), else null. */
  statusCode: number | null;
  /** Why the attempt failed without a status code (time-out, refused, DNS…), else null. */
  error: string | null;
  /** 2xx within the time limit. */
  ok: boolean;
}

export interface WebhookHttpOptions {
  timeoutMs: number;
  allowPrivateNetwork: boolean;
  /** Connections kept per receiver origin. */
  connectionsPerHost: number;
  /** OUTBOUND_TLS_CA: the CAs https receivers are verified against (the system's and a private one); unset: the system's. */
  trustedCas?: string[];
}

/** How much of a receiver's answer is read (then the connection is dropped). */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs one webhook. undici with an Agent whose DNS lookup refuses private
 * addresses (the address checked is the address connected to, so DNS
 * rebinding cannot reach inside); literal private addresses are refused
 * before any socket is opened. One total time limit covers connect, headers
 * and body. Redirects are never followed: a 3xx is a failed attempt.
 */
export class WebhookHttpClient {
  private readonly agent: Agent;

  constructor(private readonly options: WebhookHttpOptions) {
    this.agent = new Agent({
      connect: {
        lookup: guardedLookup(options.allowPrivateNetwork),
        timeout: options.timeoutMs,
        ...(options.trustedCas ? { ca: options.trustedCas } : {}),
      },
      connections: options.connectionsPerHost,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4_000,
    });
  }

  async post(
    rawUrl: string,
    headers: Record<string, string>,
    body: string,
  ): Promise<HttpAttemptResult> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return failed('invalid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return failed('URL must be http(s)');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.options.allowPrivateNetwork && isIP(host) && isPrivateAddress(host)) {
      return failed(`${host} is a private network address`);
    }

    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const res = await this.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers,
        body,
        signal,
      });
      await drain(res.body);
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return { statusCode: res.statusCode, error: null, ok };
    } catch (error) {
      if (signal.aborted) return failed(`timed out after ${this.options.timeoutMs} ms`);
      return failed(describe(error));
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function failed(error: string): HttpAttemptResult {
  return { statusCode: null, error, ok: false };
}

async function drain(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<void> {
  let read = 0;
  for await (const chunk of body) {
    read += chunk.length;
    if (read > MAX_RESPONSE_BYTES) {
      body.destroy();
      return;
    }
  }
}

function describe(error: unknown): string {
  // A receiver whose certificate we do not trust: say so, the operator may add its CA.
  const tls = tlsFailureOf(error);
  if (tls) return describeTlsFailure(tls);
  const e = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const cause = e.cause ?? e;
  switch (cause.code) {
    case 'EPRIVATEADDRESS':
      return cause.message;
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'DNS lookup failed';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connect timed out';
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return 'timed out';
    default:
      return cause.code ? `${cause.code}: ${cause.message}` : (cause.message ?? String(error));
  }
}
