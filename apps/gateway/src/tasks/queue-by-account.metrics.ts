import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { METRICS, MetricsService } from '@genhub/observability';
import { QueueName } from '@genhub/queue';
import { FairStage } from '@genhub/queue';
import { type AccountQueueSummary, AccountQueueSummaries } from '@genhub/tasks-feature';

/** Accounts labelled by id in `genhub_account_tasks`; every other one is summed into `other`. */
export const TOP_ACCOUNTS = 10;
/** The grouped query runs at most this often, whatever the scrape interval and the replicas. */
export const ACCOUNT_REFRESH_MS = 15_000;
/** Scrapes closer together than this reuse the last waiting total (as the queue depth). */
const WAITING_CACHE_MS = 1000;

/** Refreshes a value at most once per `everyMs`; concurrent callers share one read; a failed read keeps the last value. */
class Throttled<T> {
  private readAt = -Infinity;
  private pending?: Promise<void>;
  value?: T;

  constructor(
    private readonly everyMs: number,
    private readonly read: () => Promise<T>,
  ) {}

  async fresh(): Promise<T | undefined> {
    if (Date.now() - this.readAt >= this.everyMs)
      this.pending ??= this.read()
        .then((value) => {
          this.value = value;
          this.readAt = Date.now();
        })
        // PostgreSQL or Redis down: /ready says so; the last values stay.
        .catch(() => undefined)
        .finally(() => (this.pending = undefined));
    await this.pending;
    return this.value;
  }
}

/**
 * The queue by account as metrics with bounded cardinality (issue 36), on the
 * gateway only: `genhub_account_tasks{account, state}` for the ten accounts
 * with the most waiting and `account="other"` for the rest, and
 * `genhub_accounts_waiting`, from one grouped query at most every 15 s; and
 * `genhub_tasks_waiting`, the total waiting work KEDA scales task-workers on:
 * the fair stage's tasks plus the tasks queue's wait list.
 */
@Injectable()
export class QueueByAccountMetrics implements OnModuleInit {
  private readonly accounts: Throttled<AccountQueueSummary>;
  private readonly waiting: Throttled<number>;

  constructor(
    private readonly metrics: MetricsService,
    summaries: AccountQueueSummaries,
    stage: FairStage,
    @InjectQueue(QueueName.Tasks) queue: Queue,
  ) {
    this.accounts = new Throttled(ACCOUNT_REFRESH_MS, () => summaries.summary(TOP_ACCOUNTS));
    this.waiting = new Throttled(WAITING_CACHE_MS, async () => {
      const [staged, counts] = await Promise.all([stage.size(), queue.getJobCounts('waiting')]);
      return staged.tasks + (counts.waiting ?? 0);
    });
  }

  onModuleInit(): void {
    const { accounts, waiting } = this;
    this.metrics.gauge(METRICS.accountTasks, async function collect() {
      const summary = await accounts.fresh();
      if (!summary) return;
      // The top ten change: series of accounts that left it must go.
      this.reset();
      for (const { accountId, ...counts } of [
        ...summary.top,
        { accountId: 'other', ...summary.other },
      ]) {
        this.set({ account: accountId, state: 'waiting' }, counts.waiting);
        this.set({ account: accountId, state: 'running' }, counts.running);
      }
    });
    this.metrics.gauge(METRICS.accountsWaiting, async function collect() {
      const summary = await accounts.fresh();
      if (summary) this.set(summary.accountsWaiting);
    });
    this.metrics.gauge(METRICS.tasksWaiting, async function collect() {
      const total = await waiting.fresh();
      if (total !== undefined) this.set(total);
    });
  }
}
