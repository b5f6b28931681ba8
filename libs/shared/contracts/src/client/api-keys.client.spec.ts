import { createKey, listKeys, revokeKey, updateKey } from './api-keys.client';
import { createGenhubClient, GenhubRequestError } from './genhub.client';

const key = {
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  name: 'batch',
  prefix: 'gh_1a2b3c4d',
  status: 'active',
  allowed_models: ['local/*'],
  spend_limit: { amount: 5, period: 'day' },
  spent: 0,
  expires_at: null,
  scopes: ['tasks:read'],
  created_at: '2026-01-01T00:00:00.000Z',
  revoked_at: null,
  last_used_at: null,
};

function apiFetch(status: number, data: unknown) {
  const requests: Request[] = [];
  const fetch = async (input: Request) => {
    requests.push(input);
    const body = status < 400 ? { code: 200, message: 'success', data } : data;
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  };
  return {
    client: createGenhubClient({ baseUrl: 'http://gw.test', apiKey: 'k', fetch }),
    requests,
  };
}

describe('the /api/v3/keys client', () => {
  it('lists, creates, changes and revokes, answering `data`', async () => {
    const list = apiFetch(200, [key]);
    await expect(listKeys(list.client)).resolves.toEqual([key]);
    expect(list.requests[0].url).toBe('http://gw.test/api/v3/keys');

    const created = apiFetch(201, { ...key, key: 'gh_secret' });
    const settings = {
      allowed_models: ['local/*'],
      spend_limit: { amount: 5, period: 'day' as const },
    };
    await expect(createKey(created.client, settings)).resolves.toMatchObject({ key: 'gh_secret' });
    expect(created.requests[0].method).toBe('POST');
    expect(await created.requests[0].json()).toEqual(settings);

    const changed = apiFetch(200, { ...key, spend_limit: null });
    await expect(updateKey(changed.client, key.id, { spend_limit: null })).resolves.toMatchObject({
      spend_limit: null,
    });
    expect(changed.requests[0].method).toBe('PATCH');
    expect(changed.requests[0].url).toBe(`http://gw.test/api/v3/keys/${key.id}`);
    expect(await changed.requests[0].json()).toEqual({ spend_limit: null });

    const revoked = apiFetch(200, { id: key.id, status: 'revoked' });
    await expect(revokeKey(revoked.client, key.id)).resolves.toEqual({
      id: key.id,
      status: 'revoked',
    });
    expect(revoked.requests[0].method).toBe('DELETE');
  });

  it('throws the refusal with its status and body', async () => {
    const refusal = {
      code: 403,
      message: 'A key cannot create or widen a key beyond its own limits: x',
    };
    const { client } = apiFetch(403, refusal);
    const error = await createKey(client, { scopes: ['keys:manage'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GenhubRequestError);
    expect(error).toMatchObject({ status: 403, body: refusal });
  });
});
