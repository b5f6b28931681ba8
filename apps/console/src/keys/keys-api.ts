import {
  type ApiKey,
  createKey,
  type GenhubClient,
  listKeys,
  revokeKey,
  updateKey,
} from '@genhub/contracts';
import { apiError, dataOf } from '../common/api-error.util';
import type { KeySettings } from './key-settings.util';

/** One key as both the account's and the operator's lists show it (never the key itself). */
export type KeyView = ApiKey;
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

/** The signed-in account's own keys (`/api/v3/keys`; the typed client's calls). */
export function ownKeysApi(client: GenhubClient): KeysApi {
  return {
    queryKey: ['keys', 'own'],
    list: (signal) => listKeys(client, { signal }),
    create: (settings) => createKey(client, settings),
    update: (keyId, settings) => updateKey(client, keyId, settings),
    revoke: async (keyId) => {
      await revokeKey(client, keyId);
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
        await client.PATCH('/admin/v1/accounts/{id}/api-keys/{key_id}', {
          params: { path: { id: accountId, key_id: keyId } },
          body: settings,
        }),
      ),
    revoke: async (keyId) => {
      const { error, response } = await client.DELETE('/admin/v1/api-keys/{keyId}', {
        params: { path: { keyId } },
      });
      if (error !== undefined) throw apiError(response.status, error);
    },
  };
}
