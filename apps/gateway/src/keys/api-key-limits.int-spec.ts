import { sleep } from '@genhub/testing';
import {
  admin,
  call,
  createAccountWithKey,
  createAdminAccount,
  RunningGateway,
  startGateway,
} from '../test/gateway-harness.util';

interface KeyAnswer {
  id: string;
  key?: string;
  name: string | null;
  prefix: string;
  status: string;
  allowed_models: string[] | null;
  spend_limit: { amount: number; period: string } | null;
  spent: number;
  expires_at: string | null;
  scopes: string[] | null;
  last_used_at: string | null;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const SIMULATOR = '/v1/local/simulator/test';

/**
 * Keys that carry their own limits (issue 37), black-box on a real gateway
 * (PostgreSQL + Redis, no task-worker: accepted tasks wait in `created`):
 * each setting given through the admin API and `/api/v3/keys`, and each
 * refusal with its status and message.
 */
describe('API keys with limits (in-process gateways, PostgreSQL + Redis)', () => {
  let gw: RunningGateway;
  let replica: RunningGateway;

  beforeAll(async () => {
    [gw, replica] = await Promise.all([startGateway(), startGateway()]);
  });
  afterAll(async () => {
    await Promise.all([gw?.close(), replica?.close()]);
  });

  const issue = async (accountId: string, body: unknown = {}) => {
    const answer = await call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys`, {
      method: 'POST',
      headers: admin(),
      body,
    });
    expect(answer.status).toBe(201);
    return answer.body as KeyAnswer & { key: string };
  };
  const patch = (accountId: string, keyId: string, body: unknown) =>
    call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys/${keyId}`, {
      method: 'PATCH',
      headers: admin(),
      body,
    });
  const submit = (key: string, base = gw.url) =>
    call(`${base}${SIMULATOR}`, { method: 'POST', headers: bearer(key), body: { prompt: 'x' } });
  const balance = async (key: string) =>
    (await call(`${gw.url}/v1/balance`, { headers: bearer(key) })).body;

  it('issues a key with each setting and lists it with its settings, never the key', async () => {
    const { id: accountId } = await createAdminAccount(gw.url, { balance: 1 });
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const issued = await issue(accountId, {
      name: 'batch job',
      allowed_models: ['local/*', 'openai/gpt-image-1/*'],
      spend_limit: { amount: 0.5, period: 'day' },
      expires_at: expiresAt,
      scopes: ['tasks:write', 'tasks:read'],
    });
    expect(issued).toMatchObject({
      name: 'batch job',
      status: 'active',
      allowed_models: ['local/*', 'openai/gpt-image-1/*'],
      spend_limit: { amount: 0.5, period: 'day' },
      spent: 0,
      expires_at: expiresAt,
      scopes: ['tasks:write', 'tasks:read'],
      last_used_at: null,
    });
    expect(issued.key.startsWith(issued.prefix)).toBe(true);

    const list = await call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys`, {
      headers: admin(),
    });
    const listed = (list.body as { data: KeyAnswer[] }).data.find((k) => k.id === issued.id);
    const { key: plain, ...shown } = issued;
    expect(listed).toEqual(shown);
    expect(list.text).not.toContain(plain);
  });

  it('refuses bad settings with 400 and writes nothing', async () => {
    const { id: accountId } = await createAdminAccount(gw.url);
    const refuse = async (body: unknown, message: RegExp) => {
      const answer = await call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys`, {
        method: 'POST',
        headers: admin(),
        body,
      });
      expect(answer.status).toBe(400);
      expect((answer.body as { error: string }).error).toMatch(message);
    };
    await refuse(
      { expires_at: new Date(Date.now() - 1000).toISOString() },
      /expires_at must be in the future/,
    );
    await refuse({ spend_limit: { amount: 5, period: 'week' } }, /period/);
    await refuse({ spend_limit: { amount: 0, period: 'day' } }, /amount/);
    await refuse({ scopes: ['tasks:delete'] }, /scopes/);
    await refuse({ allowed_models: ['local simulator'] }, /allowed_models/);
    const list = await call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys`, {
      headers: admin(),
    });
    expect((list.body as { data: unknown[] }).data).toEqual([]);
  });

  it('a read-only key polls, lists history and reads usage, but may not submit or upload', async () => {
    const { accountId, key: full } = await createAccountWithKey(gw.url, 1);
    const task = await submit(full);
    expect(task.status).toBe(200);
    const taskId = (task.body as { id: string }).id;
    const { key: readOnly } = await issue(accountId, { scopes: ['tasks:read', 'billing:read'] });
    const get = (path: string) => call(`${gw.url}${path}`, { headers: bearer(readOnly) });

    expect((await get(`/v1/requests/${taskId}`)).status).toBe(200);
    expect((await get(`/api/v3/predictions/${taskId}/result`)).status).toBe(200);
    expect((await get('/api/v3/predictions')).status).toBe(200);
    expect((await get('/api/v3/usage')).status).toBe(200);
    expect((await get('/api/v3/billings')).status).toBe(200);
    expect((await get('/v1/balance')).status).toBe(200);
    expect((await get('/api/v3/models')).status).toBe(200);

    const refused = await submit(readOnly);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      code: 403,
      error: 'This API key does not have the scope tasks:write',
    });
    const upload = await call(`${gw.url}/api/v3/media/uploads`, {
      method: 'POST',
      headers: bearer(readOnly),
      body: { filename: 'a.png', size: 4, content_type: 'image/png' },
    });
    expect(upload.status).toBe(403);
    expect(upload.body).toMatchObject({
      code: 403,
      message: 'This API key does not have the scope files:write',
    });
    const boundary = 'scope-boundary';
    const file = await call(`${gw.url}/api/v3/files/upload`, {
      method: 'POST',
      headers: {
        ...bearer(readOnly),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      raw: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabcd\r\n--${boundary}--\r\n`,
    });
    expect(file.status).toBe(403);
    expect(file.body).toMatchObject({
      message: 'This API key does not have the scope files:write',
    });
    const cancel = await call(`${gw.url}/api/v3/predictions/${taskId}`, {
      method: 'DELETE',
      headers: bearer(readOnly),
    });
    expect(cancel.status).toBe(403);
    const keys = await get('/api/v3/keys');
    expect(keys.status).toBe(403);
    expect(keys.body).toMatchObject({
      message: 'This API key does not have the scope keys:manage',
    });

    // A billing-less key cannot read usage.
    const { key: tasksOnly } = await issue(accountId, { scopes: ['tasks:read'] });
    const usage = await call(`${gw.url}/api/v3/usage`, { headers: bearer(tasksOnly) });
    expect(usage.status).toBe(403);
    expect(usage.body).toMatchObject({
      message: 'This API key does not have the scope billing:read',
    });
  });

  it('allowed_models: a model outside the list is 403 before anything is reserved; listings show only what the key may run', async () => {
    const { accountId, key: full } = await createAccountWithKey(gw.url, 1);
    const { key: chatOnly } = await issue(accountId, { allowed_models: ['local/chat'] });
    const before = await balance(full);

    const refused = await submit(chatOnly);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      code: 403,
      error: 'This API key may not use the model local/simulator/test',
    });
    const v3 = await call(`${gw.url}/api/v3/local/simulator/test`, {
      method: 'POST',
      headers: bearer(chatOnly),
      body: { prompt: 'x' },
    });
    expect(v3.status).toBe(403);
    expect(v3.body).toMatchObject({ code: 403, data: null });
    expect(await balance(full)).toEqual(before);

    const models = await call(`${gw.url}/api/v3/models`, { headers: bearer(chatOnly) });
    expect((models.body as { data: unknown[] }).data).toEqual([]);
    const chatModels = await call(`${gw.url}/v1/models`, { headers: bearer(chatOnly) });
    expect((chatModels.body as { data: { id: string }[] }).data.map((m) => m.id)).toEqual([
      'local/chat',
    ]);

    const { key: simulatorOnly } = await issue(accountId, {
      allowed_models: ['local/simulator/*'],
    });
    expect((await submit(simulatorOnly)).status).toBe(200);
    const simModels = await call(`${gw.url}/api/v3/models`, { headers: bearer(simulatorOnly) });
    expect((simModels.body as { data: { id: string }[] }).data.map((m) => m.id)).toEqual([
      'local/simulator',
    ]);
    const chat = await call(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: bearer(simulatorOnly),
      body: { model: 'local/chat', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(chat.status).toBe(403);
    expect(chat.body).toEqual({
      error: {
        message: 'This API key may not use the model local/chat',
        type: 'permission_error',
        param: null,
      },
    });
    const chatList = await call(`${gw.url}/v1/models`, { headers: bearer(simulatorOnly) });
    expect((chatList.body as { data: unknown[] }).data).toEqual([]);
  });

  it('expires_at: from then on the key answers 401 API key expired, and shows expired', async () => {
    const { id: accountId } = await createAdminAccount(gw.url, { balance: 1 });
    const issued = await issue(accountId, {
      expires_at: new Date(Date.now() + 1500).toISOString(),
    });
    expect((await submit(issued.key)).status).toBe(200);
    await sleep(1700);
    const refused = await submit(issued.key);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ code: 401, error: 'API key expired' });
    const list = await call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys`, {
      headers: admin(),
    });
    expect((list.body as { data: KeyAnswer[] }).data[0]).toMatchObject({ status: 'expired' });
  });

  it('PATCH changes limits (null clears them) and every replica applies them at once', async () => {
    const { accountId } = await createAccountWithKey(gw.url, 1);
    const key = await issue(accountId);
    // Both replicas cache the key before the change.
    expect((await submit(key.key, gw.url)).status).toBe(200);
    expect((await submit(key.key, replica.url)).status).toBe(200);

    const limited = await patch(accountId, key.id, {
      scopes: ['tasks:read'],
      spend_limit: { amount: 2, period: 'month' },
      name: 'reader',
    });
    expect(limited.status).toBe(200);
    expect(limited.body).toMatchObject({
      id: key.id,
      name: 'reader',
      scopes: ['tasks:read'],
      spend_limit: { amount: 2, period: 'month' },
      allowed_models: null,
    });
    for (const base of [gw.url, replica.url])
      expect((await submit(key.key, base)).status).toBe(403);

    const cleared = await patch(accountId, key.id, { scopes: null });
    expect(cleared.body).toMatchObject({
      scopes: null,
      name: 'reader',
      spend_limit: { amount: 2, period: 'month' },
    });
    for (const base of [gw.url, replica.url])
      expect((await submit(key.key, base)).status).toBe(200);

    const past = await patch(accountId, key.id, { expires_at: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(400);

    const { id: otherAccount } = await createAdminAccount(gw.url);
    expect((await patch(otherAccount, key.id, { name: 'x' })).status).toBe(404);
    await call(`${gw.url}/admin/v1/api-keys/${key.id}`, { method: 'DELETE', headers: admin() });
    expect((await patch(accountId, key.id, { name: 'x' })).status).toBe(404);
  });

  describe('/api/v3/keys: an account manages its own keys, never wider than the caller', () => {
    const own = (key: string, path = '', init: { method?: string; body?: unknown } = {}) =>
      call(`${gw.url}/api/v3/keys${path}`, { ...init, headers: bearer(key) });

    it('lists, creates, patches and revokes in the v3 envelope', async () => {
      const { accountId, key: full } = await createAccountWithKey(gw.url, 1);
      const created = await own(full, '', {
        method: 'POST',
        body: { name: 'browser', scopes: ['tasks:read'], allowed_models: ['local/*'] },
      });
      expect(created.status).toBe(201);
      const issued = (created.body as { code: number; message: string; data: KeyAnswer }).data;
      expect(created.body).toMatchObject({ code: 200, message: 'success' });
      expect(issued).toMatchObject({
        name: 'browser',
        scopes: ['tasks:read'],
        allowed_models: ['local/*'],
        status: 'active',
        spent: 0,
      });
      expect(typeof issued.key).toBe('string');

      const list = await own(full);
      expect(list.status).toBe(200);
      const ids = (list.body as { data: KeyAnswer[] }).data.map((k) => k.id);
      expect(ids).toContain(issued.id);
      expect(list.text).not.toContain(issued.key as string);

      const patched = await own(full, `/${issued.id}`, {
        method: 'PATCH',
        body: { spend_limit: { amount: 1, period: 'total' } },
      });
      expect(patched.status).toBe(200);
      expect((patched.body as { data: KeyAnswer }).data).toMatchObject({
        spend_limit: { amount: 1, period: 'total' },
        scopes: ['tasks:read'],
      });

      const revoked = await own(full, `/${issued.id}`, { method: 'DELETE' });
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({
        code: 200,
        message: 'success',
        data: { id: issued.id, status: 'revoked' },
      });
      const gone = await call(`${gw.url}/api/v3/predictions`, {
        headers: bearer(issued.key as string),
      });
      expect(gone.status).toBe(401);

      // Another account's key is as unknown as a missing one.
      const other = await createAccountWithKey(gw.url);
      const otherKey = await issue(other.accountId);
      for (const method of ['PATCH', 'DELETE'])
        expect(
          (
            await own(full, `/${otherKey.id}`, {
              method,
              body: method === 'PATCH' ? {} : undefined,
            })
          ).status,
        ).toBe(404);
      expect((await submit(otherKey.key)).status).toBe(200);
      expect(accountId).not.toBe(other.accountId);
    });

    it('refuses a key wider than its caller with 403 key_wider_than_caller', async () => {
      const { accountId } = await createAccountWithKey(gw.url, 1);
      const expiresAt = new Date(Date.now() + 3_600_000);
      const manager = await issue(accountId, {
        scopes: ['keys:manage', 'tasks:read', 'tasks:write'],
        allowed_models: ['local/*'],
        spend_limit: { amount: 5, period: 'day' },
        expires_at: expiresAt.toISOString(),
      });
      const within = {
        scopes: ['tasks:read'],
        allowed_models: ['local/simulator/*'],
        spend_limit: { amount: 1, period: 'day' },
        expires_at: new Date(expiresAt.getTime() - 60_000).toISOString(),
      };
      const refuse = async (body: unknown, reason: RegExp, path = '', method = 'POST') => {
        const answer = await own(manager.key, path, { method, body });
        expect(answer.status).toBe(403);
        expect(answer.body).toMatchObject({ code: 403, data: null });
        const { message } = answer.body as { message: string };
        expect(message).toMatch(/^A key cannot create or widen a key beyond its own limits/);
        expect(message).toMatch(reason);
      };
      await refuse({ ...within, scopes: ['files:write'] }, /scopes files:write/);
      await refuse({ ...within, scopes: undefined }, /scopes billing:read, files:write/);
      await refuse({ ...within, allowed_models: ['openai/*'] }, /allowed_models openai\/\*/);
      await refuse({ ...within, allowed_models: null }, /allowed_models must be within/);
      await refuse({ ...within, spend_limit: { amount: 6, period: 'day' } }, /spend_limit/);
      await refuse({ ...within, spend_limit: { amount: 1, period: 'month' } }, /spend_limit/);
      await refuse({ ...within, expires_at: null }, /expires_at/);
      await refuse(
        { ...within, expires_at: new Date(expiresAt.getTime() + 60_000).toISOString() },
        /expires_at/,
      );

      const created = await own(manager.key, '', { method: 'POST', body: within });
      expect(created.status).toBe(201);
      const child = (created.body as { data: KeyAnswer }).data;
      // A PATCH is held to the same rule on the settings it leads to.
      await refuse({ spend_limit: null }, /spend_limit/, `/${child.id}`, 'PATCH');
      await refuse(
        { scopes: ['tasks:read', 'keys:manage', 'billing:read'] },
        /billing:read/,
        `/${child.id}`,
        'PATCH',
      );
      const narrowed = await own(manager.key, `/${child.id}`, {
        method: 'PATCH',
        body: { allowed_models: ['local/simulator/test'] },
      });
      expect(narrowed.status).toBe(200);

      // Bad input is still a 400, never a wider key.
      const bad = await own(manager.key, '', {
        method: 'POST',
        body: { ...within, expires_at: '2020-01-01T00:00:00Z' },
      });
      expect(bad.status).toBe(400);
    });
  });
});
