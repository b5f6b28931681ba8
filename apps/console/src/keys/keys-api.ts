import type { AdminApiKey, GenhubClient } from '@genhub/contracts';
import { apiError, dataOf } from '../common/api-error.util';
import type { KeySettings } from './key-settings.util';

/** One key as both the account's and the operator's lists show it (never the key itself). */
export type KeyView = AdminApiKey;
/** A key just issued: the same, with the plain key shown once. */
export type IssuedKey = KeyView & { key: string };

/**
 * The calls a keys panel makes, whoever makes them: the signed-in account on
 * its own keys (`/api/v3/keys`, scope keys:manage) or the operator on an
 * account's (`/admin/v1/…`). Each throws the refusal to show.
 */
export interface KeysApi {
  /** The list's place in the session's cache. */
  queryKey: readonly unknown[];
  list(signal?: AbortSignal): Promise<KeyView[]>;
  create(settings: KeySettings): Promise<IssuedKey>;
  update(keyId: string, settings: KeySettings): Promise<KeyView>;
  revoke(keyId: string): Promise<void>;
}

// The key routes this console calls beyond the contracts' typed paths so far
// (`/api/v3/keys` and the admin PATCH arrive with the key-settings branch of
// issue 37): the same client, its paths unchecked until they are generated.
interface Answer {
  data?: unknown;
  error?: unknown;
  response: Response;
}
interface UncheckedClient {
  GET(path: string, init?: object): Promise<Answer>;
  POST(path: string, init?: object): Promise<Answer>;
  PATCH(path: string, init?: object): Promise<Answer>;
  DELETE(path: string, init?: object): Promise<Answer>;
}
const unchecked = (client: GenhubClient) => client as unknown as UncheckedClient;

/** The signed-in account's own keys. */
export function ownKeysApi(client: GenhubClient): KeysApi {
  const calls = unchecked(client);
  const key = (keyId: string) => ({ params: { path: { key_id: keyId } } });
  return {
    queryKey: ['keys', 'own'],
    list: async (signal) =>
      (dataOf(await calls.GET('/api/v3/keys', { signal })) as { data: KeyView[] }).data,
    create: async (settings) =>
      (dataOf(await calls.POST('/api/v3/keys', { body: settings })) as { data: IssuedKey }).data,
    update: async (keyId, settings) =>
      (
        dataOf(await calls.PATCH('/api/v3/keys/{key_id}', { ...key(keyId), body: settings })) as {
          data: KeyView;
        }
      ).data,
    revoke: async (keyId) => {
      dataOf(await calls.DELETE('/api/v3/keys/{key_id}', key(keyId)));
    },
  };
}

/** An account's keys, as the operator manages them. */
export function accountKeysApi(client: GenhubClient, accountId: string): KeysApi {
  const account = { params: { path: { id: accountId } } };
  return {
    queryKey: ['accounts', 'one', accountId, 'api-keys'],
    list: async (signal) =>
      dataOf(await client.GET('/admin/v1/accounts/{id}/api-keys', { ...account, signal })).data,
    create: async (settings) =>
      dataOf(await client.POST('/admin/v1/accounts/{id}/api-keys', { ...account, body: settings })),
    update: async (keyId, settings) =>
      dataOf(
        await unchecked(client).PATCH('/admin/v1/accounts/{id}/api-keys/{key_id}', {
          params: { path: { id: accountId, key_id: keyId } },
          body: settings,
        }),
      ) as KeyView,
    revoke: async (keyId) => {
      const { error, response } = await client.DELETE('/admin/v1/api-keys/{keyId}', {
        params: { path: { keyId } },
      });
      if (error !== undefined) throw apiError(response.status, error);
    },
  };
}
