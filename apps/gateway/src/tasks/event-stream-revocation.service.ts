import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ApiKeyAuthenticator } from '@genhub/accounts-feature';
import { type TaskEventStream, TaskEventsHub } from '@genhub/tasks-feature';

/**
 * Every open stream is checked this often anyway: the bound for an auth-change
 * notice lost while the subscription stayed up (the key cache's lifetime, decision 0123).
 */
export const STREAM_RECHECK_MS = 60_000;
/** A check PostgreSQL could not answer is tried again this soon. */
const RETRY_MS = 1_000;
/** The longest delay a Node timer takes; a later expiry is armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Past the expiry, so the check that fires finds the key expired. */
const EXPIRY_MARGIN_MS = 5;

/**
 * Revocation reaches open event streams (decision 0129). A stream outlives
 * the request that authenticated it, so each auth change this replica hears
 * (revoked key, suspension — here, or from another replica through the
 * auth-changed broadcast) re-reads the keys of that account's open streams
 * from PostgreSQL and ends those whose key no longer lets its caller in. A
 * missed notice (the subscription came back) re-checks every stream; so does
 * a pass every STREAM_RECHECK_MS. A stream that opened while its account
 * changed is checked once it is open (`opened`). A stream whose key expires
 * has a timer at its `expires_at` that checks it then (issue 37), armed
 * again with the key's current expiry at every check.
 */
@Injectable()
export class EventStreamRevocation implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(EventStreamRevocation.name);
  /** When each account last changed (kept for STREAM_RECHECK_MS). */
  private readonly changedAt = new Map<string, number>();
  /** When notices may last have been missed. */
  private missedAt = 0;
  /** Checks waiting to be tried again (an account id, or '*' for every stream). */
  private readonly retrying = new Set<string>();
  /** The expiry timer of each open stream whose key expires. */
  private readonly expiryTimers = new Map<TaskEventStream, NodeJS.Timeout>();
  private stopListening?: () => void;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly hub: TaskEventsHub,
    private readonly apiKeys: ApiKeyAuthenticator,
  ) {}

  onModuleInit(): void {
    this.stopListening = this.apiKeys.onAccountChanged((accountId) => {
      if (accountId === undefined) this.missedAt = Date.now();
      else this.changedAt.set(accountId, Date.now());
      void this.recheck(accountId);
    });
    this.timer = setInterval(() => {
      this.forgetOldChanges();
      this.forgetClosedStreams();
      void this.recheck(undefined);
    }, STREAM_RECHECK_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    this.stopListening?.();
    clearInterval(this.timer);
    for (const timer of this.expiryTimers.values()) clearTimeout(timer);
    this.expiryTimers.clear();
  }

  /**
   * A stream has just opened for a caller let in at `authenticatedAt`: if its
   * account changed since (the notice came while the stream was opening, so
   * the check missed it), it is checked now.
   */
  opened(stream: TaskEventStream, authenticatedAt: number, expiresAt: Date | null = null): void {
    this.armExpiry(stream, expiresAt);
    const changed = Math.max(this.changedAt.get(stream.accountId) ?? 0, this.missedAt);
    if (changed >= authenticatedAt) void this.recheck(stream.accountId);
  }

  /** Ends the open streams (of one account, or all) whose key no longer lets its caller in. */
  async recheck(accountId: string | undefined): Promise<void> {
    const streams = this.hub.streamsOf(accountId).filter((stream) => !stream.isClosed);
    if (!streams.length) return;
    try {
      const admitted = await this.apiKeys.admittedKeys(streams.map((s) => s.apiKeyId));
      for (const stream of streams) {
        const expiresAt = admitted.get(stream.apiKeyId);
        if (expiresAt === undefined) {
          this.disarm(stream);
          stream.end();
        } else this.armExpiry(stream, expiresAt);
      }
    } catch (error) {
      this.logger.warn(
        `could not check open event streams (trying again): ${(error as Error).message}`,
      );
      const pending = accountId ?? '*';
      if (this.retrying.has(pending)) return;
      this.retrying.add(pending);
      setTimeout(() => {
        this.retrying.delete(pending);
        void this.recheck(accountId);
      }, RETRY_MS).unref();
    }
  }

  /** (Re)arms the stream's timer for its key's expiry; none for a key that never expires. */
  private armExpiry(stream: TaskEventStream, expiresAt: Date | null): void {
    this.disarm(stream);
    if (expiresAt === null || stream.isClosed) return;
    const delay = expiresAt.getTime() - Date.now() + EXPIRY_MARGIN_MS;
    const timer = setTimeout(
      () => {
        this.expiryTimers.delete(stream);
        if (delay > MAX_TIMER_MS) this.armExpiry(stream, expiresAt);
        else void this.recheck(stream.accountId);
      },
      Math.max(0, Math.min(delay, MAX_TIMER_MS)),
    );
    timer.unref();
    this.expiryTimers.set(stream, timer);
  }

  private disarm(stream: TaskEventStream): void {
    clearTimeout(this.expiryTimers.get(stream));
    this.expiryTimers.delete(stream);
  }

  private forgetClosedStreams(): void {
    for (const stream of this.expiryTimers.keys()) if (stream.isClosed) this.disarm(stream);
  }

  private forgetOldChanges(): void {
    const horizon = Date.now() - STREAM_RECHECK_MS;
    for (const [accountId, at] of this.changedAt)
      if (at < horizon) this.changedAt.delete(accountId);
  }
}
