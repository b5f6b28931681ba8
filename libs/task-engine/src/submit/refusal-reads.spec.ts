import type { ReserveInput, ReserveRefusal } from '@genhub/billing-data-access';
import { RefusalReads } from './refusal-reads';

const input = (over: Partial<ReserveInput> = {}): ReserveInput => ({
  accountId: 'a1',
  taskId: 't1',
  amountUnits: 1000,
  model: 'local/simulator/test',
  category: 'test',
  apiKeyId: 'k1',
  keyLimit: { limitUnits: 37_000, periodStart: new Date('2026-12-07T00:00:00Z') },
  ...over,
});

/** A ledger whose n-th read answers with spent = n × 1000 (a later read sees more spent). */
function countingLedger() {
  const reads: ReserveInput[] = [];
  const explain = async (i: ReserveInput): Promise<ReserveRefusal> => {
    reads.push(i);
    return {
      ok: false,
      reason: 'key_limit',
      spentUnits: reads.length * 1000,
      limitUnits: 37_000,
      currency: 'USD',
    };
  };
  return { reads, explain };
}

describe('RefusalReads', () => {
  it('reads once for the refusals of one account, key and price decided together', async () => {
    const ledger = countingLedger();
    const refusals = new RefusalReads(ledger.explain);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => refusals.read(input({ taskId: `t${i}` }))),
    );
    expect(ledger.reads).toHaveLength(1);
    expect(new Set(answers.map((a) => (a as { spentUnits: number }).spentUnits))).toEqual(
      new Set([1000]),
    );
  });

  it('gives a refusal decided after a read started a read of its own, never the older one', async () => {
    const ledger = countingLedger();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const refusals = new RefusalReads(async (i) => {
      const answer = await ledger.explain(i);
      await held; // the first read is still in PostgreSQL
      return answer;
    });
    const first = refusals.read(input());
    await new Promise((r) => setImmediate(r)); // the first read has started
    const second = refusals.read(input({ taskId: 't2' }));
    release();
    expect(await first).toMatchObject({ spentUnits: 1000 });
    expect(await second).toMatchObject({ spentUnits: 2000 });
    expect(ledger.reads).toHaveLength(2);
  });

  it('does not share a read between accounts, keys, prices or periods', async () => {
    const ledger = countingLedger();
    const refusals = new RefusalReads(ledger.explain);
    await Promise.all([
      refusals.read(input()),
      refusals.read(input({ accountId: 'a2' })),
      refusals.read(input({ apiKeyId: 'k2' })),
      refusals.read(input({ apiKeyId: null, keyLimit: undefined })),
      refusals.read(input({ amountUnits: 2000 })),
      refusals.read(
        input({ keyLimit: { limitUnits: 37_000, periodStart: new Date('2026-12-08T00:00:00Z') } }),
      ),
    ]);
    expect(ledger.reads).toHaveLength(6);
  });

  it('answers every refusal that shared a failed read with its error', async () => {
    const refusals = new RefusalReads(async () => {
      throw new Error('timeout exceeded when trying to connect');
    });
    const answers = await Promise.allSettled([refusals.read(input()), refusals.read(input())]);
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected']);
  });
});
