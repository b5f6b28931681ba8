import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Where a page of the queue by account starts: after this account, most waiting first. */
export interface AccountQueuePosition {
  waiting: number;
  accountId: string;
}

/** One account with open tasks: how many wait (`created`) and run (`processing`). */
export interface AccountQueueRow {
  accountId: string;
  waiting: number;
  running: number;
  /** The creation time of its oldest waiting task; null when none waits. */
  oldestWaitingAt: Date | null;
}

/** Every account with open tasks, summed (the whole queue, whatever the page). */
export interface AccountQueueTotals {
  waiting: number;
  running: number;
  /** Accounts with a task waiting or running. */
  accounts: number;
  /** Accounts with a task waiting. */
  accountsWaiting: number;
}

export interface AccountQueuePage {
  /** Most waiting first, then by account id. */
  rows: AccountQueueRow[];
  totals: AccountQueueTotals;
}

interface Row {
  account_id: string | null;
  waiting: number | null;
  running: number | null;
  oldest_waiting_at: Date | null;
  total_waiting: number;
  total_running: number;
  total_accounts: number;
  accounts_waiting: number;
}

/**
 * The queue by account (issue 36): the open tasks grouped by account in one
 * statement, which finds them through the `tasks_open_by_account` index
 * (never the finished rows) and reads each one's status from its row (no
 * index names the status, so a run's claim rewrites the row in place,
 * decision 0142), with the totals of every account beside the page. The
 * grouping costs one pass over the open tasks: about 30–40 ms for 100,000 tasks
 * waiting over 10,000 accounts (docs/operations.md).
 */
@Injectable()
export class AccountQueueRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Up to `limit` accounts after `after`, ordered by waiting descending then account id. */
  async page(options: { after?: AccountQueuePosition; limit: number }): Promise<AccountQueuePage> {
    const params: unknown[] = [options.limit];
    let keyset = '';
    if (options.after) {
      params.push(options.after.waiting, options.after.accountId);
      keyset = `WHERE waiting < $2 OR (waiting = $2 AND account_id > $3::uuid)`;
    }
    // The index's own predicate, spelled out: the planner chooses a partial index only for it.
    const rows: Row[] = await this.dataSource.query(
      `WITH open AS (
         SELECT account_id,
                (count(*) FILTER (WHERE status = 'created'))::int AS waiting,
                (count(*) FILTER (WHERE status = 'processing'))::int AS running,
                min(created_at) FILTER (WHERE status = 'created') AS oldest_waiting_at
           FROM tasks.tasks
          WHERE finished_at IS NULL AND deleted_at IS NULL AND status IN ('created', 'processing')
          GROUP BY account_id
       ), totals AS (
         SELECT coalesce(sum(waiting), 0)::int AS total_waiting,
                coalesce(sum(running), 0)::int AS total_running,
                count(*)::int AS total_accounts,
                (count(*) FILTER (WHERE waiting > 0))::int AS accounts_waiting
           FROM open
       )
       SELECT page.*, totals.*
         FROM totals
         LEFT JOIN LATERAL (
           SELECT account_id, waiting, running, oldest_waiting_at
             FROM open
             ${keyset}
            ORDER BY waiting DESC, account_id
            LIMIT $1
         ) page ON true`,
      params,
    );
    const first = rows[0];
    return {
      rows: rows
        .filter((r) => r.account_id !== null)
        .map((r) => ({
          accountId: r.account_id as string,
          waiting: r.waiting ?? 0,
          running: r.running ?? 0,
          oldestWaitingAt: r.oldest_waiting_at,
        })),
      totals: {
        waiting: first?.total_waiting ?? 0,
        running: first?.total_running ?? 0,
        accounts: first?.total_accounts ?? 0,
        accountsWaiting: first?.accounts_waiting ?? 0,
      },
    };
  }
}
