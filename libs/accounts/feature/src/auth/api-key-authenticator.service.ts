import { hash } from 'node:crypto';
import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import {
  ApiKeyRepository,
  hashApiKey,
  KeyCredential,
  LAST_USED_RESOLUTION_SECONDS,
  looksLikeApiKey,
} from '@genhub/accounts-data-access';
import { PepperConfig } from '@genhub/config';
import { AppErrorCode, AppException } from '@genhub/errors';
import { PubSubChannel, PubSubService } from '@genhub/queue';
import { AUTH_CACHE_TTL_MS, AuthCache } from './auth-cache.service';
import { AuthChangesPublisher } from './auth-changes.service';
import { AuthenticatedAccount } from './authenticated-account.util';

/**
 * The cache's name for a bearer key: its SHA-256, a quarter of the peppered
 * HMAC's cost (which a hit no longer pays, decision 0011), and, like it, no
 * way back to the key: the cache never holds a key a memory dump could give
 * away. A key is 32 random bytes, so an unpeppered hash is as safe a name.
 */
function cacheKeyOf(plainKey: string): string {
  return hash('sha256', plainKey, 'base64url');
}

/** How soon a failed subscription to auth changes is tried again. */
export const AUTH_RESUBSCRIBE_MS = 2_000;
const AUTH_CACHE_MAX_ENTRIES = 10_000;
const BEARER = /^bearer +(\S+) *$/i;

/**
 * Turns an Authorization header into the calling account. Hot path: a cached
 * key costs one SHA-256 and a map read; a miss costs the key's HMAC and one
 * indexed read (concurrent misses for one key share it). Revocations and
 * suspensions arrive on PubSubChannel.AuthChanged and drop the account's
 * entries on every replica. The cache is on only while that subscription is
 * up: off before it succeeds and from a lost connection until it is back
 * (emptied then), so a change is never missed for want of its notice
 * (decision 0123).
 */
@Injectable()
export class ApiKeyAuthenticator implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ApiKeyAuthenticator.name);
  readonly cache = new AuthCache(AUTH_CACHE_TTL_MS, AUTH_CACHE_MAX_ENTRIES);
  private readonly inflight = new Map<string, Promise<KeyCredential | undefined>>();
  private readonly lastTouched = new Map<string, number>();
  private readonly stops: (() => void)[] = [];
  private readonly changeListeners = new Set<(accountId: string | undefined) => void>();
  private subscribed = false;
  private retry?: NodeJS.Timeout;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly security: PepperConfig,
    private readonly pubsub: PubSubService,
    changes: AuthChangesPublisher,
  ) {
    changes.onChange((accountId) => this.accountChanged(accountId));
  }

  /**
   * Hears every auth change this replica learns of, after its cache dropped the
   * account: the id of an account whose key was revoked or whose status
   * changed (here or, through Redis, on another replica), or `undefined` when
   * notices may have been missed (the subscription came back after a drop)
   * and every account must be checked again. Returns the unsubscribe.
   */
  onAccountChanged(listener: (accountId: string | undefined) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private accountChanged(accountId: string | undefined): void {
    if (accountId === undefined) this.cache.clear();
    else this.cache.invalidateAccount(accountId);
    for (const listener of this.changeListeners) {
      try {
        listener(accountId);
      } catch (error) {
        this.logger.warn(`auth change listener failed: ${(error as Error).message}`);
      }
    }
  }

  async onModuleInit(): Promise<void> {
    this.stops.push(
      this.pubsub.onDisconnect(() => this.cache.suspend()),
      this.pubsub.onReconnect(() => {
        if (!this.subscribed) return;
        this.cache.resume();
        this.accountChanged(undefined);
      }),
    );
    await this.listen();
  }

  onModuleDestroy(): void {
    clearTimeout(this.retry);
    for (const stop of this.stops.splice(0)) stop();
  }

  /** Subscribes to auth changes, trying again until it works; the cache is on from then. */
  private async listen(): Promise<void> {
    try {
      this.stops.push(
        await this.pubsub.subscribe(PubSubChannel.AuthChanged, (accountId) =>
          this.accountChanged(accountId),
        ),
      );
      this.subscribed = true;
      this.cache.resume();
    } catch (error) {
      this.logger.warn(
        `auth-changed subscription failed (keys are read on every request until it works): ${(error as Error).message}`,
      );
      this.retry = setTimeout(() => void this.listen(), AUTH_RESUBSCRIBE_MS);
      this.retry.unref();
    }
  }

  /**
   * Throws the 401/403 AppExceptions (docs/interface.md, "Authentication"); returns the
   * caller otherwise.
   */
  async authenticate(header: string | string[] | undefined): Promise<AuthenticatedAccount> {
    const value = Array.isArray(header) ? header[0] : header;
    if (value === undefined || value.trim() === '')
      throw new AppException(AppErrorCode.MissingAuthorization);
    const match = BEARER.exec(value.trim());
    if (!match) throw new AppException(AppErrorCode.InvalidAuthorizationFormat);
    const plainKey = match[1];
    if (!looksLikeApiKey(plainKey)) throw new AppException(AppErrorCode.InvalidApiKey);

    const credential = await this.lookUp(cacheKeyOf(plainKey), () =>
      this.keys.findCredentialByHash(hashApiKey(this.security.API_KEY_PEPPER, plainKey)),
    );
    const account = this.admit(credential);
    this.noteUse(account.apiKeyId);
    return account;
  }

  /**
   * The caller behind a key known by its id (a signed token names the key it
   * was issued to): the same refusals as `authenticate` for a revoked or
   * unknown key (401) and a suspended account (403), the same cache, dropped
   * by the same notices.
   */
  async authenticateKeyId(keyId: string): Promise<AuthenticatedAccount> {
    const credential = await this.lookUp(`id:${keyId}`, async () => {
      const [live] = await this.keys.findLiveKeys([keyId]);
      return live;
    });
    return this.admit(credential);
  }

  /**
   * Which of `keyIds` still let their caller in (live, unexpired, account active), read
   * now from PostgreSQL, never from the cache: what an open event stream is
   * checked against when its account changed. Each with when it expires (null:
   * never), so a stream of a key that expires is ended then (issue 37).
   */
  async admittedKeys(keyIds: readonly string[]): Promise<Map<string, Date | null>> {
    const live = await this.keys.findLiveKeys(keyIds);
    const now = Date.now();
    const admitted = live.filter(
      (c) =>
        c.status === 'active' &&
        (c.limits.expiresAt === null || c.limits.expiresAt.getTime() > now),
    );
    return new Map(admitted.map((c) => [c.keyId, c.limits.expiresAt]));
  }

  private admit(credential: KeyCredential | undefined): AuthenticatedAccount {
    if (!credential) throw new AppException(AppErrorCode.InvalidApiKey);
    if (credential.status !== 'active') throw new AppException(AppErrorCode.AccountSuspended);
    const { expiresAt } = credential.limits;
    if (expiresAt !== null && expiresAt.getTime() <= Date.now())
      throw new AppException(AppErrorCode.ApiKeyExpired);
    return {
      id: credential.accountId,
      currency: credential.currency,
      accountLevel: credential.accountLevel,
      maxConcurrentTasks: credential.maxConcurrentTasks,
      apiKeyId: credential.keyId,
      apiKeyLimits: credential.limits,
    };
  }

  private lookUp(
    cacheKey: string,
    read: () => Promise<KeyCredential | undefined>,
  ): Promise<KeyCredential | undefined> {
    const cached = this.cache.get(cacheKey);
    if (cached) return Promise.resolve(cached);
    const pending = this.inflight.get(cacheKey);
    if (pending) return pending;
    const epoch = this.cache.epoch;
    const reading = read()
      .then((credential) => {
        if (credential) this.cache.set(cacheKey, credential, epoch);
        return credential;
      })
      .finally(() => this.inflight.delete(cacheKey));
    this.inflight.set(cacheKey, reading);
    return reading;
  }

  /** last_used_at, lazily: at most one write per key per resolution, never awaited by the request. */
  private noteUse(keyId: string): void {
    const now = Date.now();
    const last = this.lastTouched.get(keyId);
    if (last !== undefined && now - last < LAST_USED_RESOLUTION_SECONDS * 1000) return;
    if (this.lastTouched.size >= AUTH_CACHE_MAX_ENTRIES) this.lastTouched.clear();
    this.lastTouched.set(keyId, now);
    this.keys.touchLastUsed(keyId).catch((error: Error) => {
      this.logger.warn(`could not record key use: ${error.message}`);
    });
  }
}
