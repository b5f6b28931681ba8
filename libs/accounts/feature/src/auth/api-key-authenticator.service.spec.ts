import {
  ApiKeyRepository,
  generateApiKey,
  hashApiKey,
  KeyCredential,
} from '@genhub/accounts-data-access';
import { SecurityConfig } from '@genhub/config';
import { APP_ERRORS, AppException } from '@genhub/errors';
import { PubSubService } from '@genhub/queue';
import { ApiKeyAuthenticator } from './api-key-authenticator.service';
import { AuthChangesPublisher } from './auth-changes.service';

const PEPPER = 'unit-test-pepper-0123';

function setup(credentials: Record<string, KeyCredential>) {
  const findCredentialByHash = jest.fn(async (hash: string) => credentials[hash]);
  const touchLastUsed = jest.fn(async () => true);
  // Strict: any other repository method throws.
  const keys = new Proxy({ findCredentialByHash, touchLastUsed } as object, {
    get(target, prop) {
      if (prop in target) return (target as Record<string | symbol, unknown>)[prop];
      if (prop === 'then') return undefined;
      throw new Error(`unexpected call ApiKeyRepository.${String(prop)}`);
    },
  }) as ApiKeyRepository;
  const security = Object.assign(new SecurityConfig(), { API_KEY_PEPPER: PEPPER });
  const pubsub = { publish: jest.fn(async () => undefined) } as unknown as PubSubService;
  const changes = new AuthChangesPublisher(pubsub);
  const auth = new ApiKeyAuthenticator(keys, security, pubsub, changes);
  return { auth, changes, findCredentialByHash, touchLastUsed };
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
    status: 'active',
  };

  it('answers the interface messages for each refusal', async () => {
    const { auth, findCredentialByHash } = setup({});
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
    const { auth } = setup({ [hashApiKey(PEPPER, key)]: { ...credential, status: 'suspended' } });
    expect(await refusal(auth.authenticate(`Bearer ${key}`))).toEqual({
      status: 403,
      code: 'account_suspended',
      message: 'Account suspended',
    });
  });

  it('caches look-ups, shares concurrent misses, touches last use once, and forgets on change', async () => {
    const { auth, changes, findCredentialByHash, touchLastUsed } = setup({
      [hashApiKey(PEPPER, key)]: credential,
    });
    const results = await Promise.all([1, 2, 3].map(() => auth.authenticate(`Bearer ${key}`)));
    await auth.authenticate(`bearer ${key}`);
    expect(results[0]).toEqual({
      id: 'a1',
      currency: 'USD',
      accountLevel: 'Silver',
      apiKeyId: 'k1',
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

  it('does not cache what a look-up read while an invalidation happened', async () => {
    const { auth, changes, findCredentialByHash } = setup({
      [hashApiKey(PEPPER, key)]: credential,
    });
    const pending = auth.authenticate(`Bearer ${key}`);
    await changes.accountChanged('a1');
    await pending;
    await auth.authenticate(`Bearer ${key}`);
    expect(findCredentialByHash).toHaveBeenCalledTimes(2);
  });
});
