import { TaskEventsHub } from '@genhub/tasks-feature';
import { until } from '@genhub/testing';
import {
  admin,
  call,
  createAccountWithKey,
  RunningGateway,
  startGateway,
} from '../test/gateway-harness.util';

/** How soon a revocation must reach an open stream and its token (issue 34). */
const WITHIN_MS = 3000;

interface OpenStream {
  /** Everything received so far. */
  text: () => string;
  /** Resolves when the server ends the stream (or the test gives up). */
  ended: Promise<void>;
  isEnded: () => boolean;
  abort: () => void;
}

/** Opens a stream and keeps reading it in the background; resolves once its first event came. */
async function openStream(url: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  let ended = false;
  const done = (async () => {
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      // aborted by the test
    }
    ended = true;
  })();
  await until(async () => text.includes('event: created'));
  return { text: () => text, ended: done, isEnded: () => ended, abort: () => controller.abort() };
}

/**
 * Revocation reaches live task events (issue 34): a revoked key or a suspended
 * account ends its open event streams and makes its stream tokens refuse
 * within seconds, on every gateway replica (the auth-changed broadcast), and
 * only those: another key of the same account keeps its stream. Two gateways
 * in process, no task-worker (the tasks wait in `created`, their streams stay open).
 */
describe('revocation ends event streams and refuses their tokens (two in-process gateways)', () => {
  let gw: RunningGateway;
  let replica: RunningGateway;

  beforeAll(async () => {
    [gw, replica] = await Promise.all([startGateway(), startGateway()]);
  });
  afterAll(async () => {
    await Promise.all([gw?.close(), replica?.close()]);
  });

  const issueKey = async (accountId: string, settings: Record<string, unknown> = {}) => {
    const issued = await call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys`, {
      method: 'POST',
      headers: admin(),
      body: settings,
    });
    return issued.body as { id: string; key: string };
  };
  const keyIdOf = async (accountId: string) => {
    const keys = await call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys`, {
      headers: admin(),
    });
    return (keys.body as { data: { id: string }[] }).data.at(-1)?.id as string;
  };
  const submit = async (key: string) => {
    const answer = await call(`${gw.url}/v1/local/simulator/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: { prompt: 'revocation' },
    });
    return (answer.body as { id: string }).id;
  };
  const tokenFor = async (key: string, taskId: string) => {
    const answer = await call(`${gw.url}/api/v3/predictions/${taskId}/events/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    });
    return (answer.body as { data: { token: string } }).data.token;
  };
  const eventsUrl = (base: string, taskId: string, token?: string) =>
    `${base}/api/v3/predictions/${taskId}/events${token ? `?token=${token}` : ''}`;
  const openCount = (app: RunningGateway) => app.app.get(TaskEventsHub).openStreams;

  it('a revoked key: its streams end on every replica and its tokens are refused; another key’s stream lives on', async () => {
    const { accountId, key } = await createAccountWithKey(gw.url, 1);
    const keyId = await keyIdOf(accountId);
    const other = await issueKey(accountId);
    const [byToken, byHeader, byOtherKey] = await Promise.all([
      submit(key),
      submit(key),
      submit(other.key),
    ]);
    const token = await tokenFor(key, byToken);
    const otherToken = await tokenFor(other.key, byOtherKey);
    // On the replica that will only hear of the revocation through Redis.
    const viaToken = await openStream(eventsUrl(replica.url, byToken, token));
    const viaHeader = await openStream(eventsUrl(replica.url, byHeader), {
      authorization: `Bearer ${key}`,
    });
    const untouched = await openStream(eventsUrl(replica.url, byOtherKey, otherToken));

    const revokedAt = Date.now();
    const revoked = await call(`${gw.url}/admin/v1/api-keys/${keyId}`, {
      method: 'DELETE',
      headers: admin(),
    });
    expect(revoked.status).toBe(200);
    await until(async () => viaToken.isEnded() && viaHeader.isEnded(), WITHIN_MS);
    expect(Date.now() - revokedAt).toBeLessThan(WITHIN_MS);
    // Ended without a terminal event: the task itself is still waiting.
    expect(viaToken.text()).not.toMatch(/event: (completed|failed|deleted)/);

    for (const base of [gw.url, replica.url]) {
      const refused = await call(eventsUrl(base, byToken, token));
      expect([refused.status, refused.body]).toEqual([
        401,
        { code: 401, message: 'Event stream token is not valid or has expired', data: null },
      ]);
    }
    expect(untouched.isEnded()).toBe(false);
    expect(openCount(replica)).toBe(1);
    untouched.abort();
    await untouched.ended;
  }, 20_000);

  it('a suspended account: every stream of it ends and its tokens answer 403; unsuspended, they open again', async () => {
    const { accountId, key } = await createAccountWithKey(gw.url, 1);
    const taskId = await submit(key);
    const token = await tokenFor(key, taskId);
    const onReplica = await openStream(eventsUrl(replica.url, taskId, token));
    const onSame = await openStream(eventsUrl(gw.url, taskId), { authorization: `Bearer ${key}` });

    const suspendedAt = Date.now();
    const suspended = await call(`${gw.url}/admin/v1/accounts/${accountId}/suspend`, {
      method: 'POST',
      headers: admin(),
    });
    expect(suspended.status).toBe(200);
    await until(async () => onReplica.isEnded() && onSame.isEnded(), WITHIN_MS);
    expect(Date.now() - suspendedAt).toBeLessThan(WITHIN_MS);
    const refused = await call(eventsUrl(replica.url, taskId, token));
    expect([refused.status, refused.body]).toEqual([
      403,
      { code: 403, message: 'Account suspended', data: null },
    ]);

    await call(`${gw.url}/admin/v1/accounts/${accountId}/unsuspend`, {
      method: 'POST',
      headers: admin(),
    });
    const again = await until(async () => {
      const stream = await fetch(eventsUrl(replica.url, taskId, token));
      if (stream.status === 200) return stream;
      await stream.body?.cancel();
      return undefined;
    }, WITHIN_MS);
    await again.body?.cancel();
  }, 20_000);

  it('a key that expires: its streams end at its expires_at and its tokens are refused (issue 37)', async () => {
    const { accountId } = await createAccountWithKey(gw.url, 1);
    const expiresAt = Date.now() + 2_500;
    const expiring = await issueKey(accountId, { expires_at: new Date(expiresAt).toISOString() });
    const [byToken, byHeader] = await Promise.all([submit(expiring.key), submit(expiring.key)]);
    const token = await tokenFor(expiring.key, byToken);
    const viaToken = await openStream(eventsUrl(replica.url, byToken, token));
    const viaHeader = await openStream(eventsUrl(gw.url, byHeader), {
      authorization: `Bearer ${expiring.key}`,
    });
    expect(viaToken.isEnded() || viaHeader.isEnded()).toBe(false);

    // No notice is sent for an expiry: each replica's timer ends the stream at expires_at.
    await until(
      async () => viaToken.isEnded() && viaHeader.isEnded(),
      expiresAt - Date.now() + WITHIN_MS,
    );
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
    expect(Date.now() - expiresAt).toBeLessThan(WITHIN_MS);
    expect(viaToken.text()).not.toMatch(/event: (completed|failed|deleted)/);

    for (const base of [gw.url, replica.url]) {
      const refused = await call(eventsUrl(base, byToken, token));
      expect([refused.status, refused.body]).toEqual([
        401,
        { code: 401, message: 'Event stream token is not valid or has expired', data: null },
      ]);
    }
    const byKey = await call(eventsUrl(gw.url, byHeader), {
      headers: { authorization: `Bearer ${expiring.key}` },
    });
    expect([byKey.status, byKey.body]).toEqual([
      401,
      { code: 401, message: 'API key expired', data: null },
    ]);
  }, 20_000);

  it('a key whose tasks:read is taken away: its tokens answer 403 scope_not_allowed (issue 37)', async () => {
    const { accountId } = await createAccountWithKey(gw.url, 1);
    const reader = await issueKey(accountId);
    const taskId = await submit(reader.key);
    const token = await tokenFor(reader.key, taskId);
    const patched = await call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys/${reader.id}`, {
      method: 'PATCH',
      headers: admin(),
      body: { scopes: ['tasks:write'] },
    });
    expect(patched.status).toBe(200);
    for (const base of [gw.url, replica.url]) {
      const refused = await call(eventsUrl(base, taskId, token));
      expect([refused.status, refused.body]).toEqual([
        403,
        { code: 403, message: 'This API key does not have the scope tasks:read', data: null },
      ]);
    }
  }, 20_000);
});
