import { Injectable } from '@nestjs/common';
import { AccountQueueRepository } from '@genhub/tasks-data-access';

/** Waiting and running tasks of one account, or of a group of them. */
export interface AccountQueueCounts {
  waiting: number;
  running: number;
}

/** The queue by account in a bounded shape: the top accounts by waiting, and the rest summed. */
export interface AccountQueueSummary {
  /** At most `top` accounts, most waiting first, then by account id. */
  top: (AccountQueueCounts & { accountId: string })[];
  /** Every other account with open tasks, summed. */
  other: AccountQueueCounts;
  /** Accounts with a task waiting. */
  accountsWaiting: number;
}

/**
 * The per-account gauges' source (issue 36): one grouped query answers the
 * top accounts and the totals; the rest is their difference.
 */
@Injectable()
export class AccountQueueSummaries {
  constructor(private readonly queue: AccountQueueRepository) {}

  async summary(top: number): Promise<AccountQueueSummary> {
    const { rows, totals } = await this.queue.page({ limit: top });
    const sum = (key: keyof AccountQueueCounts) => rows.reduce((n, row) => n + row[key], 0);
    return {
      top: rows.map(({ accountId, waiting, running }) => ({ accountId, waiting, running })),
      other: {
        waiting: totals.waiting - sum('waiting'),
        running: totals.running - sum('running'),
      },
      accountsWaiting: totals.accountsWaiting,
    };
  }
}
