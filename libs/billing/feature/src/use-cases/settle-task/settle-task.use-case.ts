import { Injectable } from '@nestjs/common';
import { LedgerRepository } from '@genhub/billing-data-access';

export interface SettleTaskInput {
  taskId: string;
  accountId: string;
  outcome: 'capture' | 'release';
}

/** `unchanged`: nothing open to settle (unknown task, or already settled). */
export type SettleTaskResult = 'captured' | 'released' | 'unchanged';

/**
 * Settles a task's reservation exactly once (docs/interface.md, "Billing semantics"):
 * capture turns it into one `usage` record, release returns it to the balance. Both
 * are a conditional open → settled update, so a redelivered or duplicated event,
 * or one racing another, changes nothing.
 */
@Injectable()
export class SettleTaskUseCase {
  constructor(private readonly ledger: LedgerRepository) {}

  async execute(input: SettleTaskInput): Promise<SettleTaskResult> {
    const ids = { taskId: input.taskId, accountId: input.accountId };
    const result =
      input.outcome === 'capture' ? await this.ledger.capture(ids) : await this.ledger.release(ids);
    return result.outcome;
  }
}
