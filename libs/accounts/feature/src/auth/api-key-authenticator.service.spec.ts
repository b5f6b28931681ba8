import { createHash } from 'node:crypto';
import {
  ApiKeyRepository,
  generateApiKey,
  hashApiKey,
  KeyCredential,
  NO_LIMITS,
} from '@genhub/accounts-data-access';
import { PepperConfig } from '@genhub/config';
import { APP_ERRORS, AppException } from '@genhub/errors';
import { PubSubService } from '@genhub/queue';
import { ApiKeyAuthenticator, AUTH_RESUBSCRIBE_MS } from './api-key-authenticator.service';
import { AUTH_CACHE_TTL_MS } from './auth-cache.service';
import { AUTH_REPUBLISH_MS, AuthChangesPublisher } from './auth-changes.service';

const PEPPER = 'unit-test-pepper-0123';

/** PubSubService as the authenticator uses it: one channel, a connection that can drop and come back. */
function fakePubSub() {
  const handlers = new Set<(message: string) => void>();
  const lost = new Set<() => void>();
  const back = new Set<() => void>();
  const state = { subscribeFailures: 0 };
  const pubsub = {
    publish: jest.fn(async (_channel: string, message: string) => {
      for (const handler of handlers) handler(message);
    }),
    subscribe: jest.fn(async (_channel: string, handler: (message: string) => void) => {
      if (state.subscribeFailures-- > 0) throw new Error('connect ECONNREFUSED');
      handlers.add(handler);
      return () => handlers.delete(handler);
    }),
    onDisconnect: (listener: () => void) => (lost.add(listener), () => lost.delete(listener)),
    onReconnect: (listener: () => void) => (back.add(listener), () => back.delete(listener)),
  };
  return {
    pubsub: pubsub as unknown as PubSubService,
    publish: pubsub.publish,
    state,
    drop: () => lost.forEach((l) => l()),
    restore: () => back.forEach((l) => l()),
  };
}

async function setup(credentials: Record<string, KeyCredential>, subscribeFailures = 0) {
  const findCredentialByHash = jest.fn(async (hash: string) => credentials[hash]);
  const findLiveKeys = jest.fn(async (ids: readonly string[]) =>
    Object.values(credentials).filter((c) => ids.includes(c.keyId)),
  );
  const touchLastUsed = jest.fn(async () => true);
  // Strict: any other repository method throws.
  const keys = new Proxy({ findCredentialByHash, findLiveKeys, touchLastUsed } as object, {
    get(target, prop) {
      if (prop in target) return (target as Record<string | symbol, unknown>)[prop];
      if (prop === 'then') return undefined;
      throw new Error(`unexpected call ApiKeyRepository.${String(prop)}`);
    },
  }) as ApiKeyRepository;
  const security = Object.assign(new PepperConfig(), { API_KEY_PEPPER: PEPPER });
  const redis = fakePubSub();
  redis.state.subscribeFailures = subscribeFailures;
  const changes = new AuthChangesPublisher(redis.pubsub);
  const auth = new ApiKeyAuthenticator(keys, security, redis.pubsub, changes);
  await auth.onModuleInit();
  return { auth, changes, findCredentialByHash, findLiveKeys, touchLastUsed, redis, credentials };
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppException);
  const { message, code } = error as AppException;
  const status = APP_ERRORS[code].status;
  return { status, message, code };
}

describe('ApiKeyAuthenticator', () => {
  const key = generateApiKey();
  const credential: KeyCredential = {
    keyId: 'k1',
    keyPrefix: key.slice(0, 11),
    accountId: 'a1',
    currency: 'USD',
    accountLevel: 'Silver',
    maxConcurrentTasks: 4,
    status: 'active',
    limits: NO_LIMITS,
  };

  it('answers the interface messages for each refusal', async () => {
    const { auth, findCredentialByHash } = await setup({});
    expect(await refusal(auth.authenticate(undefined))).toEqual({
      status: 401,
      code: 'missing_authorization',
      message: 'Missing Authorization header',
    });
    expect(await refusal(auth.authenticate(''))).toMatchObject({
      message: 'Missing Authorization header',
    });
    for (const header of ['Basic abc', `Bearer`, `Bearer ${key} extra`, key, `Token ${key}`])
      expect(await refusal(auth.authenticate(header))).toEqual({
        status: 401,
        code: 'invalid_authorization_format',
        message: 'Invalid Authorization format, expected: Bearer <api_key>',
      });
    expect(await refusal(auth.authenticate('Bearer not-a-key'))).toEqual({
      status: 401,
      code: 'invalid_api_key',
      message: 'Invalid or revoked API key',
    });
    // Garbage never reaches the database; a well-formed unknown key does.
    expect(findCredentialByHash).not.toHaveBeenCalled();
    expect(await refusal(auth.authenticate(`Bearer ${key}`))).toMatchObject({ status: 401 });
    expect(findCredentialByHash).toHaveBeenCalledTimes(1);
  });

  it('refuses a suspended account with 403', async () => {
    const { auth } = await setup({
      [hashApiKey(PEPPER, key)]: { ...credential, status: 'suspended' },
    });
    expect(await refusal(auth.authenticate(`Bearer ${key}`))).toEqual({
      status: 403,
      code: 'account_suspended',
      message: 'Account suspended',
    });
  });

  it('refuses a key past its expires_at with 401 API key expired, and lets one before it in (issue 37)', async () => {
    const expired = {
      ...credential,
      limits: { ...NO_LIMITS, expiresAt: new Date(Date.now() - 1) },
    };
    const { auth } = await setup({ [hashApiKey(PEPPER, key)]: expired });
    expect(await refusal(auth.authenticate(`Bearer ${key}`))).toEqual({
      status: 401,
      code: 'api_key_expired',
      message: 'API key expired',
    });
    const later = new Date(Date.now() + 60_000);
    const live = { ...credential, limits: { ...NO_LIMITS, expiresAt: later } };
    const { auth: other } = await setup({ [hashApiKey(PEPPER, key)]: live });
    expect((await other.authenticate(`Bearer ${key}`)).apiKeyLimits.expiresAt).toEqual(later);
  });

  it('caches look-ups, shares concurrent misses, touches last use once, and forgets on change', async () => {
    const { auth, changes, findCredentialByHash, touchLastUsed } = await setup({
      [hashApiKey(PEPPER, key)]: credential,
    });
    const results = await Promise.all([1, 2, 3].map(() => auth.authenticate(`Bearer ${key}`)));
    await auth.authenticate(`bearer ${key}`);
    expect(results[0]).toEqual({
      id: 'a1',
      currency: 'USD',
      accountLevel: 'Silver',
      maxConcurrentTasks: 4,
      apiKeyId: 'k1',
      apiKeyLimits: NO_LIMITS,
    });
    expect(findCredentialByHash).toHaveBeenCalledTimes(1);
    expect(touchLastUsed).toHaveBeenCalledTimes(1);

    await changes.accountChanged('someone-else');
    await auth.authenticate(`Bearer ${key}`);
    expect(findCredentialByHash).toHaveBeenCalledTimes(1);
    await changes.accountChanged('a1');
    await auth.authenticate(`Bearer ${key}`);
    expect(findCredentialByHash).toHaveBeenCalledTimes(2);
  });

  it('names a cached key by its SHA-256: the cache holds neither the key nor its stored hash', async () => {
    const { auth, findCredentialByHash } = await setup({ [hashApiKey(PEPPER, key)]: credential });
    await auth.authenticate(`Bearer ${key}`);
    // The look-up still reads by the peppered hash, the one the database stores.
    expect(findCredentialByHash).toHaveBeenCalledWith(hashApiKey(PEPPER, key));
    expect(auth.cache.get(createHash('sha256').update(key).digest('base64url'))).toEqual(
      credential,
    );
    expect(auth.cache.get(key)).toBeUndefined();
    expect(auth.cache.get(hashApiKey(PEPPER, key))).toBeUndefined();
    // Another key of the same account is its own entry.
    const other = generateApiKey();
    expect(auth.cache.get(createHash('sha256').update(other).digest('base64url'))).toBeUndefined();
  });

  it('carries the operator cap with the level; a change notice makes the next call read the new ones', async () => {
    const { auth, changes, findCredentialByHash, credentials } = await setup({
      [hashApiKey(PEPPER, key)]: { ...credential, maxConcurrentTasks: null },
    });
    expect(await auth.authenticate(`Bearer ${key}`)).toMatchObject({
      accountLevel: 'Silver',
      maxConcurrentTasks: null,
    });
    credentials[hashApiKey(PEPPER, key)] = {
      ...credential,
      accountLevel: 'Gold',
      maxConcurrentTasks: 2,
    };
    // Cached until the account's change is announced (the admin API does, on a new cap or level).
    expect(await auth.authenticate(`Bearer ${key}`)).toMatchObject({ maxConcurrentTasks: null });
    await changes.accountChanged('a1');
    expect(await auth.authenticate(`Bearer ${key}`)).toMatchObject({
      accountLevel: 'Gold',
      maxConcurrentTasks: 2,
    });
    expect(findCredentialByHash).toHaveBeenCalledTimes(2);
  });

  it('does not cache what a look-up read while an invalidation happened', async () => {
    const { auth, changes, findCredentialByHash } = await setup({
      [hashApiKey(PEPPER, key)]: credential,
    });
    const pending = auth.authenticate(`Bearer ${key}`);
    await changes.accountChanged('a1');
    await pending;
    await auth.authenticate(`Bearer ${key}`);
    expect(findCredentialByHash).toHaveBeenCalledTimes(2);
  });

  it('a key known by its id (a stream token names it): the same refusals and cache', async () => {
    const { auth, changes, findLiveKeys, credentials } = await setup({
      [hashApiKey(PEPPER, key)]: credential,
    });
    expect(await auth.authenticateKeyId('k1')).toEqual({
      id: 'a1',
      currency: 'USD',
      accountLevel: 'Silver',
      maxConcurrentTasks: 4,
      apiKeyId: 'k1',
      apiKeyLimits: NO_LIMITS,
    });
    await auth.authenticateKeyId('k1');
    expect(findLiveKeys).toHaveBeenCalledTimes(1);
    expect(await refusal(auth.authenticateKeyId('unknown'))).toMatchObject({
      status: 401,
      code: 'invalid_api_key',
    });
    credentials[hashApiKey(PEPPER, key)] = { ...credential, status: 'suspended' };
    await changes.accountChanged('a1');
    expect(await refusal(auth.authenticateKeyId('k1'))).toMatchObject({
      status: 403,
      code: 'account_suspended',
    });
    expect(await auth.admittedKeys(['k1', 'unknown'])).toEqual(new Map());
    credentials[hashApiKey(PEPPER, key)] = credential;
    expect(await auth.admittedKeys(['k1', 'unknown'])).toEqual(new Map([['k1', null]]));
  });

  it('tells its listeners of every change, here or from another replica, and of missed ones', async () => {
    const { auth, changes, redis } = await setup({});
    const heard: (string | undefined)[] = [];
    const stop = auth.onAccountChanged((accountId) => heard.push(accountId));
    await changes.accountChanged('a1');
    await redis.publish('auth-changed', 'a2');
    redis.drop();
    redis.restore(); // notices sent meanwhile were lost: every account is to be checked
    expect(heard).toEqual(['a1', 'a1', 'a2', undefined]);
    stop();
    await changes.accountChanged('a3');
    expect(heard).toHaveLength(4);
  });

  describe('the cache is on only while changes can be heard', () => {
    afterEach(() => jest.useRealTimers());

    it('reads every look-up until the subscription works, retrying it; caches from then', async () => {
      jest.useFakeTimers();
      const { auth, findCredentialByHash, redis } = await setup(
        { [hashApiKey(PEPPER, key)]: credential },
        1,
      );
      await auth.authenticate(`Bearer ${key}`);
      await auth.authenticate(`Bearer ${key}`);
      expect(findCredentialByHash).toHaveBeenCalledTimes(2);
      await jest.advanceTimersByTimeAsync(AUTH_RESUBSCRIBE_MS);
      expect(redis.pubsub.subscribe).toHaveBeenCalledTimes(2);
      await auth.authenticate(`Bearer ${key}`);
      await auth.authenticate(`Bearer ${key}`);
      expect(findCredentialByHash).toHaveBeenCalledTimes(3);
      auth.onModuleDestroy();
    });

    it('a lost connection empties it and turns it off until the connection is back', async () => {
      const { auth, findCredentialByHash, redis } = await setup({
        [hashApiKey(PEPPER, key)]: credential,
      });
      await auth.authenticate(`Bearer ${key}`);
      await auth.authenticate(`Bearer ${key}`);
      expect(findCredentialByHash).toHaveBeenCalledTimes(1);
      redis.drop(); // a revocation now would not be heard: every look-up reads
      await auth.authenticate(`Bearer ${key}`);
      await auth.authenticate(`Bearer ${key}`);
      expect(findCredentialByHash).toHaveBeenCalledTimes(3);
      redis.restore(); // back: read once afresh, then cached
      await auth.authenticate(`Bearer ${key}`);
      await auth.authenticate(`Bearer ${key}`);
      expect(findCredentialByHash).toHaveBeenCalledTimes(4);
    });

    it('forgets a change’s account when its notice arrives from another replica', async () => {
      const { auth, findCredentialByHash, redis } = await setup({
        [hashApiKey(PEPPER, key)]: credential,
      });
      await auth.authenticate(`Bearer ${key}`);
      await redis.publish('auth-changed', 'a1');
      await auth.authenticate(`Bearer ${key}`);
      expect(findCredentialByHash).toHaveBeenCalledTimes(2);
    });
  });
});

describe('AuthChangesPublisher', () => {
  afterEach(() => jest.useRealTimers());

  it('publishes a failed notice again until it goes through', async () => {
    jest.useFakeTimers();
    const publish = jest
      .fn()
      .mockRejectedValueOnce(new Error('down'))
      .mockRejectedValueOnce(new Error('down'))
      .mockResolvedValue(undefined);
    const changes = new AuthChangesPublisher({ publish } as unknown as PubSubService);
    const heard: string[] = [];
    changes.onChange((accountId) => heard.push(accountId));
    await changes.accountChanged('a1');
    expect(heard).toEqual(['a1']); // this replica at once
    await jest.advanceTimersByTimeAsync(AUTH_REPUBLISH_MS * 5);
    expect(publish).toHaveBeenCalledTimes(3);
  });

  it('stops trying once no cache can still hold what the notice would drop', async () => {
    jest.useFakeTimers();
    const publish = jest.fn().mockRejectedValue(new Error('down'));
    const changes = new AuthChangesPublisher({ publish } as unknown as PubSubService);
    await changes.accountChanged('a1');
    await jest.advanceTimersByTimeAsync(AUTH_CACHE_TTL_MS * 2);
    const calls = publish.mock.calls.length;
    expect(calls).toBeGreaterThan(AUTH_CACHE_TTL_MS / AUTH_REPUBLISH_MS / 2);
    expect(calls).toBeLessThanOrEqual(AUTH_CACHE_TTL_MS / AUTH_REPUBLISH_MS + 1);
  });
});
