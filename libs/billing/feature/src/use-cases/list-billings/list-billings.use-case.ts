import { Injectable } from '@nestjs/common';
import { BillingHistoryRepository } from '@genhub/billing-data-access';
import type { BillingsPageDto } from '@genhub/contracts/server';
import { AppErrorCode, AppException } from '@genhub/errors';
import {
  BILLINGS_DEFAULT_PER_PAGE,
  BILLINGS_MAX_PAGE,
  BILLINGS_MAX_PER_PAGE,
  BILLING_RECORD_TYPES,
  type BillingRecordTypeFilter,
  billingRecordJson,
} from '../../billing.types';

export interface ListBillingsInput {
  accountId: string;
  page?: number;
  perPage?: number;
  type?: BillingRecordTypeFilter;
  /** Only this API key's records (issue 37). */
  apiKeyId?: string;
}

function isIntIn(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}

/**
 * A page of the account's billing records, newest first. The page is an
 * index range on the per-account record numbers, never an OFFSET scan, so
 * page 10,000 costs what page 1 costs. Filtered by key, a page is a range
 * of that key's index (account, key, time), read by offset.
 */
@Injectable()
export class ListBillingsUseCase {
  constructor(private readonly history: BillingHistoryRepository) {}

  async execute(input: ListBillingsInput): Promise<BillingsPageDto> {
    const page = input.page ?? 1;
    const perPage = input.perPage ?? BILLINGS_DEFAULT_PER_PAGE;
    if (!isIntIn(page, 1, BILLINGS_MAX_PAGE))
      throw new AppException(AppErrorCode.InvalidRequest, {
        message: `page must be an integer from 1 to ${BILLINGS_MAX_PAGE}`,
        fields: ['page'],
      });
    if (!isIntIn(perPage, 1, BILLINGS_MAX_PER_PAGE))
      throw new AppException(AppErrorCode.InvalidRequest, {
        message: `per_page must be an integer from 1 to ${BILLINGS_MAX_PER_PAGE}`,
        fields: ['per_page'],
      });
    if (input.type !== undefined && !BILLING_RECORD_TYPES.includes(input.type))
      throw new AppException(AppErrorCode.InvalidRequest, {
        message: 'type must be top-up or usage',
        fields: ['type'],
      });
    const result = await this.history.pageRecords({
      accountId: input.accountId,
      type: input.type,
      apiKeyId: input.apiKeyId,
      offset: (page - 1) * perPage,
      limit: perPage,
    });
    return {
      records: result.records.map(billingRecordJson),
      total: result.total,
      page,
      per_page: perPage,
    };
  }
}
