import { DataSource } from 'typeorm';
import { admin, call, RunningGateway, startGateway } from '../test/gateway-harness.util';

/** Idempotency-Key over HTTP, the real ledger and PostgreSQL (issue 10). */
describe('Idempotency-Key on submit (in-process gateway)', () => {
  let gw: RunningGateway;
  let accountId: string;
  let key: string;

  beforeAll(async () => {
    gw = await startGateway();
    const account = await call(`${gw.url}/admin/v1/accounts`, {
      method: 'POST',
      headers: admin(),
      body: { balance: 1 },
    });
    accountId = (account.body as { id: string }).id;
    const issued = await call(`${gw.url}/admin/v1/accounts/${accountId}/api-keys`, {
      method: 'POST',
      headers: admin(),
    });
    key = (issued.body as { key: string }).key;
  });
  afterAll(() => gw.close());

  const submit = (idempotencyKey: string, body: unknown) =>
    call(`${gw.url}/v1/local/simulator/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': idempotencyKey },
      body,
    });

  async function counts() {
    const ds = gw.app.get(DataSource);
    const [row]: { tasks: number; reservations: number; reserved: number }[] = await ds.query(
      `SELECT (SELECT count(*)::int FROM tasks.tasks WHERE account_id = $1) AS tasks,
              (SELECT count(*)::int FROM billing.reservations WHERE account_id = $1) AS reservations,
              (SELECT reserved_units FROM billing.balances WHERE account_id = $1) AS reserved`,
      [accountId],
    );
    return row;
  }

  it('20 parallel clients with one key and body: one task, one reservation, one acknowledgement', async () => {
    const before = await counts();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => submit('order-42', { prompt: 'once', duration_ms: 10 })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const acks = answers.map((a) => a.body as { id: string; status: string });
    expect(new Set(answers.map((a) => a.text)).size).toBe(1); // the same acknowledgement, byte for byte
    expect(acks[0]).toMatchObject({ status: 'created', id: expect.any(String) });
    expect(await counts()).toEqual({
      tasks: before.tasks + 1,
      reservations: before.reservations + 1,
      reserved: before.reserved + 1000,
    });

    // The same body in another key order is the same request; a later retry replays too.
    const replay = await submit('order-42', { duration_ms: 10, prompt: 'once' });
    expect([replay.status, (replay.body as { id: string }).id]).toEqual([200, acks[0].id]);

    // The same key with another body is refused and charges nothing.
    const other = await submit('order-42', { prompt: 'something else' });
    expect([other.status, other.body]).toEqual([
      409,
      { code: 409, error: 'Idempotency-Key was already used with a different request' },
    ]);
    expect(await counts()).toEqual({
      tasks: before.tasks + 1,
      reservations: before.reservations + 1,
      reserved: before.reserved + 1000,
    });

    // Another key is another task.
    const second = await submit('order-43', { prompt: 'once', duration_ms: 10 });
    expect((second.body as { id: string }).id).not.toBe(acks[0].id);
  }, 30_000);
});
