import { Inject, Injectable, Logger } from '@nestjs/common';
import { AccountLevel, AccountRepository } from '@genhub/accounts-data-access';
import { AppErrorCode, AppException } from '@genhub/errors';
import { AuthChangesPublisher } from '../../auth/auth-changes.service';
import { ACCOUNT_BALANCES, AccountBalances } from '../../ports/account-balances.port';
import { ACCOUNT_SCHEDULING, AccountScheduling } from '../../ports/account-scheduling.port';
import { AccountView } from '../account-view.types';

/** How long a change waits for the scheduler to hear of it before it answers anyway. */
export const SCHEDULING_NOTICE_TIMEOUT_MS = 2_000;

export interface UpdateAccountInput {
  accountId: string;
  /** Left out: kept. */
  accountLevel?: AccountLevel;
  /** Left out: kept; null: no cap. */
  maxConcurrentTasks?: number | null;
}

/**
 * `PATCH /admin/v1/accounts/{id}`: the account's level and its optional cap on
 * tasks running at once (issue 36). Applies at once: every gateway drops its
 * cached principal of the account (it carries both), and the scheduler is told
 * the new share. The scheduler's notice may fail (Redis away): it is logged and
 * the change stands, since each submit of the account carries its share again.
 */
@Injectable()
export class UpdateAccountUseCase {
  private readonly logger = new Logger(UpdateAccountUseCase.name);

  constructor(
    private readonly accounts: AccountRepository,
    private readonly changes: AuthChangesPublisher,
    @Inject(ACCOUNT_BALANCES) private readonly balances: AccountBalances,
    @Inject(ACCOUNT_SCHEDULING) private readonly scheduling: AccountScheduling,
  ) {}

  async execute(input: UpdateAccountInput): Promise<AccountView> {
    const account = await this.accounts.updateSettings(input.accountId, {
      accountLevel: input.accountLevel,
      maxConcurrentTasks: input.maxConcurrentTasks,
    });
    if (!account) throw new AppException(AppErrorCode.NotFound);
    await this.changes.accountChanged(account.id);
    await this.tellScheduler(account.id, account.accountLevel, account.maxConcurrentTasks);
    const balance = (await this.balances.balanceOf(account.id)) ?? {
      balanceUnits: 0,
      reservedUnits: 0,
    };
    return { account, balance };
  }

  private async tellScheduler(
    accountId: string,
    level: AccountLevel,
    maxConcurrentTasks: number | null,
  ): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.scheduling.shareChanged(accountId, { level, maxConcurrentTasks }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer in ${SCHEDULING_NOTICE_TIMEOUT_MS} ms`)),
            SCHEDULING_NOTICE_TIMEOUT_MS,
          );
        }),
      ]);
    } catch (error) {
      this.logger.warn(
        `the scheduler did not hear of account ${accountId}'s new share (its next submit carries it): ${(error as Error).message}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }
}
