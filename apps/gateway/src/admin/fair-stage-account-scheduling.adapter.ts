import { Injectable } from '@nestjs/common';
import type { AccountScheduling, AccountSchedulingShare } from '@genhub/accounts-feature';
import { LEVEL_WEIGHTS } from '@genhub/contracts';
import { FairStage } from '@genhub/queue';

/**
 * The accounts domain's notice of a new level or cap, delivered to the task
 * fair stage (issue 36): from the next dispatch on, the account is
 * weighted by its level and held at its cap.
 */
@Injectable()
export class FairStageAccountScheduling implements AccountScheduling {
  constructor(private readonly fairStage: FairStage) {}

  shareChanged(accountId: string, share: AccountSchedulingShare): Promise<void> {
    return this.fairStage.setShare(accountId, {
      weight: LEVEL_WEIGHTS[share.level],
      maxConcurrentTasks: share.maxConcurrentTasks,
    });
  }
}
