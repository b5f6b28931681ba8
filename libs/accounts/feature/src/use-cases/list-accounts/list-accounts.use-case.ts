import { Inject, Injectable } from '@nestjs/common';
import {
  type AccountPosition,
  AccountRepository,
  type AccountStatus,
} from '@genhub/accounts-data-access';
import { decodeKeysetCursor, encodeKeysetCursor } from '@genhub/database';
import { APP_ERRORS, AppErrorCode, AppException } from '@genhub/errors';
import { ACCOUNT_BALANCES, AccountBalances } from '../../ports/account-balances.port';
import { AccountView } from '../account-view.types';

export const DEFAULT_ACCOUNT_PAGE_SIZE = 20;

export interface ListAccountsInput {
  status?: AccountStatus;
  /** `nextCursor` of the previous page, as it was given. */
  cursor?: string;
  /** 1–100 (validated at the edge); DEFAULT_ACCOUNT_PAGE_SIZE when absent. */
  limit?: number;
}

export interface AccountPage {
  /** Newest first. */
  views: AccountView[];
  /** Null on the last page. */
  nextCursor: string | null;
}

/** The position a cursor names (the task history's cursors, decision 0113); anything else is a 400. */
function positionOf(cursor: string): AccountPosition {
  const position = decodeKeysetCursor(cursor);
  if (!position)
    throw new AppException(AppErrorCode.InvalidRequest, {
      message: `${APP_ERRORS[AppErrorCode.InvalidRequest].message}: cursor must be a next_cursor passed back as it was given`,
      fields: ['cursor'],
    });
  return position;
}

/**
 * GET /admin/v1/accounts (decision 0116): the accounts, newest first, one
 * keyset page at a time (one row past the limit tells whether another page
 * follows), each with its ledger balance read for the whole page at once.
 */
@Injectable()
export class ListAccountsUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    @Inject(ACCOUNT_BALANCES) private readonly balances: AccountBalances,
  ) {}

  async execute(input: ListAccountsInput = {}): Promise<AccountPage> {
    const limit = input.limit ?? DEFAULT_ACCOUNT_PAGE_SIZE;
    const rows = await this.accounts.pageAccounts({
      status: input.status,
      after: input.cursor !== undefined ? positionOf(input.cursor) : undefined,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const balances = await this.balances.balancesOf(page.map((row) => row.account.id));
    return {
      views: page.map(({ account }) => ({
        account,
        balance: balances.get(account.id) ?? { balanceUnits: 0, reservedUnits: 0 },
      })),
      nextCursor: rows.length > limit ? encodeKeysetCursor(page[page.length - 1].position) : null,
    };
  }
}
