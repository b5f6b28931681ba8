import type { KeyCredential } from '@genhub/accounts-data-access';

/**
 * A cached look-up lives at most this long: the bound on a change whose
 * notice was lost while the subscription stayed up (decision 0123). A lost
 * connection is handled apart: the cache is off until it is back.
 */
export const AUTH_CACHE_TTL_MS = 60_000;

interface Entry {
  credential: KeyCredential;
  expiresAt: number;
}

/**
 * A key's cache name (its SHA-256, never the key) → credential, in process.
 * Bounded (oldest entries go first) and short-lived; `invalidateAccount` is
 * called on every auth change, here and, through pub/sub, on every other
 * replica. The epoch guards against a look-up
 * that started before an invalidation storing what it read afterwards. While
 * `suspended` (no way to hear of changes) it keeps and answers nothing.
 */
export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  private epochValue = 0;
  private suspendedValue = true;

  constructor(
    readonly ttlMs: number,
    readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get epoch(): number {
    return this.epochValue;
  }

  /** Whether the cache is off (it starts off: resume() once changes can be heard). */
  get suspended(): boolean {
    return this.suspendedValue;
  }

  /** Off until resume(): what it held is dropped, look-ups under way store nothing. */
  suspend(): void {
    this.suspendedValue = true;
    this.clear();
  }

  /** On again, empty: whatever changed while it was off is read afresh. */
  resume(): void {
    this.clear();
    this.suspendedValue = false;
  }

  get(hash: string): KeyCredential | undefined {
    if (this.suspendedValue) return undefined;
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
    if (epoch !== this.epochValue || this.suspendedValue) return;
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
