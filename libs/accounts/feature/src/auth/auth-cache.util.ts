import type { KeyCredential } from '@genhub/accounts-data-access';

interface Entry {
  credential: KeyCredential;
  expiresAt: number;
}

/**
 * Key hash → credential, in process. Bounded (oldest entries go first) and
 * short-lived; `invalidateAccount` is called on every auth change, here and,
 * through pub/sub, on every other replica. The epoch guards against a look-up
 * that started before an invalidation storing what it read afterwards.
 */
export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  private epochValue = 0;

  constructor(
    readonly ttlMs: number,
    readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get epoch(): number {
    return this.epochValue;
  }

  get(hash: string): KeyCredential | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.credential;
  }

  /** Stores unless an invalidation happened since `epoch` was read. */
  set(hash: string, credential: KeyCredential, epoch: number): void {
    if (epoch !== this.epochValue) return;
    this.entries.delete(hash);
    this.entries.set(hash, { credential, expiresAt: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  invalidateAccount(accountId: string): void {
    this.epochValue++;
    for (const [hash, entry] of this.entries)
      if (entry.credential.accountId === accountId) this.entries.delete(hash);
  }

  clear(): void {
    this.epochValue++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
