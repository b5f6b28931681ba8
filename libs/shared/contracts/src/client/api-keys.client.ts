import type {
  ApiKey,
  CreateApiKeyRequest,
  IssuedOwnApiKey,
  RevokedApiKey,
  UpdateApiKeyRequest,
} from '../types';
import { type GenhubClient, GenhubRequestError } from './genhub.client';
import type { RequestOptions } from './task-events.client';

// The account's own keys (`/api/v3/keys`, issue 37): the calling key needs the
// scope `keys:manage`, and a key it creates or changes is never wider than
// itself (403 `key_wider_than_caller`). Each refusal throws GenhubRequestError
// with the status and the `/api/v3` error body.

/** The caller's account's keys, newest first, revoked ones included (never the key itself). */
export async function listKeys(
  client: GenhubClient,
  options: RequestOptions = {},
): Promise<ApiKey[]> {
  const { data, error, response } = await client.GET('/api/v3/keys', { signal: options.signal });
  if (error !== undefined || !data) throw new GenhubRequestError(response.status, error);
  return data.data;
}

/** A new key with the settings given; its plain `key` is in this answer only. */
export async function createKey(
  client: GenhubClient,
  settings: CreateApiKeyRequest = {},
  options: RequestOptions = {},
): Promise<IssuedOwnApiKey> {
  const { data, error, response } = await client.POST('/api/v3/keys', {
    body: settings,
    signal: options.signal,
  });
  if (error !== undefined || !data) throw new GenhubRequestError(response.status, error);
  return data.data;
}

/** Changes the settings given (`null` clears one) and keeps the others. */
export async function updateKey(
  client: GenhubClient,
  keyId: string,
  change: UpdateApiKeyRequest,
  options: RequestOptions = {},
): Promise<ApiKey> {
  const { data, error, response } = await client.PATCH('/api/v3/keys/{key_id}', {
    params: { path: { key_id: keyId } },
    body: change,
    signal: options.signal,
  });
  if (error !== undefined || !data) throw new GenhubRequestError(response.status, error);
  return data.data;
}

/** Revokes a key: it answers 401 from then on, on every gateway. */
export async function revokeKey(
  client: GenhubClient,
  keyId: string,
  options: RequestOptions = {},
): Promise<RevokedApiKey> {
  const { data, error, response } = await client.DELETE('/api/v3/keys/{key_id}', {
    params: { path: { key_id: keyId } },
    signal: options.signal,
  });
  if (error !== undefined || !data) throw new GenhubRequestError(response.status, error);
  return data.data;
}
