import { Injectable } from '@nestjs/common';
import type { AdminQueueAccountPageDto, ListQueueAccountsQueryDto } from '@genhub/contracts/server';
import { decodeCountKeysetCursor, encodeCountKeysetCursor } from '@genhub/database';
import { APP_ERRORS, AppErrorCode, AppException } from '@genhub/errors';
import { type AccountQueuePosition, AccountQueueRepository } from '@genhub/tasks-data-access';

export const DEFAULT_QUEUE_ACCOUNT_PAGE_SIZE = 20;

/** The position a cursor names; anything else is a 400 in the admin's words (as the account list). */
function positionOf(cursor: string): AccountQueuePosition {
  const position = decodeCountKeysetCursor(cursor);
  if (!position)
    throw new AppException(AppErrorCode.InvalidRequest, {
      message: `${APP_ERRORS[AppErrorCode.InvalidRequest].message}: cursor must be a next_cursor passed back as it was given`,
      fields: ['cursor'],
    });
  return { waiting: position.count, accountId: position.id };
}

/**
 * GET /admin/v1/queue/accounts (issue 36): the accounts with open tasks, most
 * waiting first, then by account id, one keyset page on (waiting, account id)
 * at a time (one row past the limit tells whether another page follows), with
 * the totals of the whole queue. The counts move while an operator pages: an
 * account whose waiting count changes between two pages may be missed or
 * shown twice, as in any keyset list over a changing order.
 */
@Injectable()
export class ListQueueAccountsUseCase {
  constructor(private readonly queue: AccountQueueRepository) {}

  async execute(query: ListQueueAccountsQueryDto = {}): Promise<AdminQueueAccountPageDto> {
    const limit = query.limit ?? DEFAULT_QUEUE_ACCOUNT_PAGE_SIZE;
    const { rows, totals } = await this.queue.page({
      after: query.cursor !== undefined ? positionOf(query.cursor) : undefined,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      data: page.map((row) => ({
        account_id: row.accountId,
        waiting: row.waiting,
        running: row.running,
        oldest_waiting_at: row.oldestWaitingAt?.toISOString() ?? null,
      })),
      next_cursor:
        rows.length > limit
          ? encodeCountKeysetCursor({ count: last.waiting, id: last.accountId })
          : null,
      totals: { waiting: totals.waiting, running: totals.running, accounts: totals.accounts },
    };
  }
}
