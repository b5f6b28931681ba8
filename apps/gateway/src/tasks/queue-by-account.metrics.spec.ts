import type { Queue } from 'bullmq';
import { MetricsService } from '@genhub/observability';
import type { FairStage } from '@genhub/queue';
import type { AccountQueueSummaries, AccountQueueSummary } from '@genhub/tasks-feature';
import {
  ACCOUNT_REFRESH_MS,
  QueueByAccountMetrics,
  TOP_ACCOUNTS,
} from './queue-by-account.metrics';

/** A summary of `accounts` accounts (a-00, a-01, …), the first TOP_ACCOUNTS labelled. */
function summaryOf(accounts: string[]): AccountQueueSummary {
  const rows = accounts.map((accountId, i) => ({ accountId, waiting: 100 - i, running: 1 }));
  const rest = rows.slice(TOP_ACCOUNTS);
  return {
    top: rows.slice(0, TOP_ACCOUNTS),
    other: {
      waiting: rest.reduce((n, r) => n + r.waiting, 0),
      running: rest.reduce((n, r) => n + r.running, 0),
    },
    accountsWaiting: rows.length,
  };
}

describe('QueueByAccountMetrics', () => {
  let now = 1_000_000;
  let metrics: MetricsService;
  let reads: number;
  let current: AccountQueueSummary;

  beforeEach(() => {
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    metrics = new MetricsService();
    reads = 0;
    const summaries = {
      summary: async (top: number) => {
        expect(top).toBe(TOP_ACCOUNTS);
        reads++;
        return current;
      },
    } as unknown as AccountQueueSummaries;
    const stage = { size: async () => ({ tasks: 7, accounts: 2 }) } as unknown as FairStage;
    const queue = { getJobCounts: async () => ({ waiting: 3 }) } as unknown as Queue;
    new QueueByAccountMetrics(metrics, summaries, stage, queue).onModuleInit();
  });
  afterEach(() => {
    metrics.onApplicationShutdown();
    jest.restoreAllMocks();
  });

  const accountSeries = async () => {
    const json = await metrics.registry.getSingleMetricAsString('genhub_account_tasks');
    return [...json.matchAll(/account="([^"]+)",state="(\w+)"\} (\d+)/g)].map(
      ([, account, state, value]) => `${account} ${state} ${value}`,
    );
  };
  const names = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => `a-${String(i + from).padStart(2, '0')}`);

  it('labels the top ten and one `other`, whatever the number of accounts', async () => {
    current = summaryOf(names(40));
    const series = await accountSeries();
    expect(series).toHaveLength(2 * (TOP_ACCOUNTS + 1));
    expect(series).toContain('a-00 waiting 100');
    expect(series).toContain('a-09 running 1');
    expect(series.some((s) => s.startsWith('a-10 '))).toBe(false);
    // 90 + 89 + … + 61 waiting, one running each, in `other`.
    expect(series).toContain(`other waiting ${(90 + 61) * 15}`);
    expect(series).toContain('other running 30');
    expect(await metrics.registry.getSingleMetricAsString('genhub_accounts_waiting')).toMatch(
      / 40$/m,
    );
    expect(await metrics.registry.getSingleMetricAsString('genhub_tasks_waiting')).toMatch(/ 10$/m);
  });

  it('reads at most every 15 s, and drops the series of accounts that left the top ten', async () => {
    current = summaryOf(names(12));
    await accountSeries();
    await metrics.registry.metrics();
    expect(reads).toBe(1);

    current = summaryOf(names(12, 50));
    now += ACCOUNT_REFRESH_MS - 1;
    expect(await accountSeries()).toContain('a-00 waiting 100');
    expect(reads).toBe(1);

    now += 1;
    const series = await accountSeries();
    expect(reads).toBe(2);
    expect(series).toHaveLength(2 * (TOP_ACCOUNTS + 1));
    expect(series.some((s) => s.startsWith('a-00 '))).toBe(false);
    expect(series).toContain('a-50 waiting 100');
  });

  it('keeps the last values while the database does not answer', async () => {
    current = summaryOf(names(3));
    await accountSeries();
    current = Promise.reject(new Error('down')) as unknown as AccountQueueSummary;
    (current as unknown as Promise<void>).catch(() => undefined);
    now += ACCOUNT_REFRESH_MS;
    expect(await accountSeries()).toContain('a-00 waiting 100');
  });
});
