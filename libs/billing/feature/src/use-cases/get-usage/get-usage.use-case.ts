import { Injectable } from '@nestjs/common';
import { BillingHistoryRepository } from '@genhub/billing-data-access';
import type { UsageStatisticsDto } from '@genhub/contracts/server';
import { fromMicros } from '@genhub/money';
import { resolveDayRange } from '../../util/date-range.util';

export interface GetUsageInput {
  accountId: string;
  period?: string;
  startDate?: string;
  endDate?: string;
  /** Only this API key's usage, summed from its records (issue 37). */
  apiKeyId?: string;
  /** The clock, for "current month" and "today" (UTC). */
  now?: Date;
}

/**
 * Usage over a month or an inclusive day range (docs/interface.md, "Usage range"),
 * summed from the daily rollup that every capture maintains, so its cost is the
 * number of days × categories, never the number of tasks. One key's usage
 * (issue 37) is summed from its usage records instead (the rollup is per account).
 */
@Injectable()
export class GetUsageUseCase {
  constructor(private readonly history: BillingHistoryRepository) {}

  async execute(input: GetUsageInput): Promise<UsageStatisticsDto> {
    const range = resolveDayRange(input, input.now);
    const days = { accountId: input.accountId, startDate: range.startDate, endDate: range.endDate };
    const rows =
      input.apiKeyId === undefined
        ? await this.history.usageByCategory(days)
        : await this.history.keyUsageByCategory({ ...days, apiKeyId: input.apiKeyId });
    const breakdown: UsageStatisticsDto['breakdown'] = {};
    let tasks = 0;
    let costUnits = 0;
    for (const row of rows) {
      breakdown[row.category] = { tasks: row.tasks, cost: fromMicros(row.costUnits) };
      tasks += row.tasks;
      costUnits += row.costUnits;
    }
    return {
      total_tasks: tasks,
      total_cost: fromMicros(costUnits),
      period: range.period,
      breakdown,
    };
  }
}
