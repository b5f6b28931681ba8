import { Injectable } from '@nestjs/common';
import { describeTlsFailure, tlsFailureOf } from '@genhub/config';

export type ReadinessCheck = () => Promise<void>;

/**
 * Modules that own a connection (database, Redis, storage) register a check
 * here; `/ready` answers 200 only when every check passes. A check that
 * failed because of TLS says so (`failed: TLS: certificate not trusted (…)`),
 * whatever wrapped the error on its way up (decision 0138).
 */
@Injectable()
export class ReadinessRegistry {
  private readonly checks = new Map<string, ReadinessCheck>();

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  async run(timeoutMs = 2000): Promise<{ ok: boolean; checks: Record<string, string> }> {
    const results = await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        try {
          await withTimeout(check(), timeoutMs);
          return [name, 'ok'] as const;
        } catch (error) {
          const tls = tlsFailureOf(error);
          const reason = tls ? describeTlsFailure(tls) : (error as Error).message;
          return [name, `failed: ${reason}`] as const;
        }
      }),
    );
    return { ok: results.every(([, r]) => r === 'ok'), checks: Object.fromEntries(results) };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
