import { Logger } from '@nestjs/common';
import { AccountRepository, StoredAccount } from '@genhub/accounts-data-access';
import { AppException } from '@genhub/errors';
import { AuthChangesPublisher } from '../../auth/auth-changes.service';
import type { AccountBalances } from '../../ports/account-balances.port';
import type { AccountScheduling } from '../../ports/account-scheduling.port';
import { SCHEDULING_NOTICE_TIMEOUT_MS, UpdateAccountUseCase } from './update-account.use-case';

const ACCOUNT_ID = '0b5e8a4e-4c1f-4a8e-9a55-2f7d7c1d9a01';

function setup(shareChanged: AccountScheduling['shareChanged']) {
  const stored = Object.assign(new StoredAccount(), {
    id: ACCOUNT_ID,
    currency: 'USD',
    accountLevel: 'Gold',
    status: 'active',
    maxConcurrentTasks: 3,
    webhookSecret: 'whsec_x',
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  const updateSettings = jest.fn(async (id: string) => (id === ACCOUNT_ID ? stored : undefined));
  const accountChanged = jest.fn(async () => undefined);
  const scheduling = { shareChanged: jest.fn(shareChanged) };
  const useCase = new UpdateAccountUseCase(
    { updateSettings } as unknown as AccountRepository,
    { accountChanged } as unknown as AuthChangesPublisher,
    {
      balanceOf: async () => ({ balanceUnits: 5, reservedUnits: 1 }),
    } as unknown as AccountBalances,
    scheduling,
  );
  const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  return { useCase, updateSettings, accountChanged, scheduling, warn };
}

describe('UpdateAccountUseCase', () => {
  afterEach(() => jest.restoreAllMocks());

  it('stores the change, drops the cached principals and tells the scheduler the new share', async () => {
    const { useCase, updateSettings, accountChanged, scheduling, warn } = setup(() =>
      Promise.resolve(),
    );
    const view = await useCase.execute({ accountId: ACCOUNT_ID, maxConcurrentTasks: 3 });
    expect(updateSettings).toHaveBeenCalledWith(ACCOUNT_ID, {
      accountLevel: undefined,
      maxConcurrentTasks: 3,
    });
    expect(accountChanged).toHaveBeenCalledWith(ACCOUNT_ID);
    // The share as stored (the level it kept, the cap it got), not only the fields sent.
    expect(scheduling.shareChanged).toHaveBeenCalledWith(ACCOUNT_ID, {
      level: 'Gold',
      maxConcurrentTasks: 3,
    });
    expect(view.balance).toEqual({ balanceUnits: 5, reservedUnits: 1 });
    expect(warn).not.toHaveBeenCalled();
  });

  it('answers 404 for an unknown account and tells no one', async () => {
    const { useCase, accountChanged, scheduling } = setup(() => Promise.resolve());
    await expect(
      useCase.execute({ accountId: 'a6f0b9e2-0000-4000-8000-000000000000', accountLevel: 'Gold' }),
    ).rejects.toBeInstanceOf(AppException);
    expect(accountChanged).not.toHaveBeenCalled();
    expect(scheduling.shareChanged).not.toHaveBeenCalled();
  });

  it('a failed notice to the scheduler (Redis away) is a warning, not the operator’s error', async () => {
    const { useCase, warn } = setup(async () => {
      throw new Error('connect ECONNREFUSED');
    });
    const view = await useCase.execute({ accountId: ACCOUNT_ID, maxConcurrentTasks: 3 });
    expect(view.account.maxConcurrentTasks).toBe(3);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('ECONNREFUSED'));
  });

  it('does not wait for a scheduler that never answers', async () => {
    jest.useFakeTimers();
    try {
      const { useCase, warn } = setup(() => new Promise(() => undefined));
      const done = useCase.execute({ accountId: ACCOUNT_ID, maxConcurrentTasks: 3 });
      await jest.advanceTimersByTimeAsync(SCHEDULING_NOTICE_TIMEOUT_MS);
      expect((await done).account.id).toBe(ACCOUNT_ID);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('no answer'));
    } finally {
      jest.useRealTimers();
    }
  });
});
