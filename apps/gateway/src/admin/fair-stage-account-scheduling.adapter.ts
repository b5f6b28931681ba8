import { Injectable } from '@nestjs/common';
import type { AccountScheduling, AccountSchedulingShare } from '@genhub/accounts-feature';
import { FairStage } from '@genhub/task-engine';

/**
 * The accounts domain's notice of a new level or cap, delivered to the task
 * engine's fair stage (issue 36): from the next dispatch on, the account is
 * weighted by its level and held at its cap.
 */
@Injectable()
export class FairStageAccountScheduling implements AccountScheduling {
  constructor(private readonly fairStage: FairStage) {}

  shareChanged(accountId: string, share: AccountSchedulingShare): Promise<void> {
    return this.fairStage.setShare(accountId, {
      level: share.level,
      maxConcurrentTasks: share.maxConcurrentTasks,
    });
  }
}
