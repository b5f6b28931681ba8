import { Injectable } from '@nestjs/common';
import { BillingHistoryRepository } from '@genhub/billing-data-access';
import { AppErrorCode, AppException } from '@genhub/errors';
import {
  BILLING_RECORD_TYPES,
  type BillingRecordTypeFilter,
  billingRecordJson,
} from '../../billing.types';
import { csvRow } from '../../util/csv.util';
import { type DayRange, resolveDayRange } from '../../util/date-range.util';

export interface ExportBillingsInput {
  accountId: string;
  startDate?: string;
  endDate?: string;
  type?: BillingRecordTypeFilter;
  /** Only this API key's records (issue 37). */
  apiKeyId?: string;
  now?: Date;
  /** Records per database round trip. */
  batchSize?: number;
}

export interface BillingsExport {
  range: DayRange;
  filename: string;
  /** CSV text chunks: the header row, then one chunk per batch of records. */
  chunks: AsyncIterable<string>;
}

export const EXPORT_COLUMNS = [
  'id',
  'date',
  'type',
  'amount',
  'model',
  'task_id',
  'balance_after',
] as const;

/**
 * The billing export: the account's records over inclusive UTC days (the same
 * range rule as usage), newest first, as RFC 4180 CSV. Records are read in
 * keyset batches as the client consumes them, so memory stays flat whatever
 * the range holds. Validation happens in `execute`, before any byte is sent.
 */
@Injectable()
export class ExportBillingsUseCase {
  constructor(private readonly history: BillingHistoryRepository) {}

  async execute(input: ExportBillingsInput): Promise<BillingsExport> {
    const range = resolveDayRange(
      { startDate: input.startDate, endDate: input.endDate },
      input.now,
    );
    if (input.type !== undefined && !BILLING_RECORD_TYPES.includes(input.type))
      throw new AppException(AppErrorCode.InvalidRequest, {
        message: 'type must be top-up or usage',
        fields: ['type'],
      });
    const batchSize = input.batchSize ?? 1000;
    // The first batch is read now, so a database failure is a clean 500, not a cut stream.
    const first = await this.batch(input, range, batchSize);
    return {
      range,
      filename: `billings-${range.startDate}-to-${range.endDate}.csv`,
      chunks: this.chunks(input, range, batchSize, first),
    };
  }

  private batch(input: ExportBillingsInput, range: DayRange, limit: number, afterSeq?: number) {
    return this.history.exportBatch({
      accountId: input.accountId,
      startDate: range.startDate,
      endDate: range.endDate,
      type: input.type,
      apiKeyId: input.apiKeyId,
      afterSeq,
      limit,
    });
  }

  private async *chunks(
    input: ExportBillingsInput,
    range: DayRange,
    batchSize: number,
    first: Awaited<ReturnType<ExportBillingsUseCase['batch']>>,
  ): AsyncIterable<string> {
    yield csvRow(EXPORT_COLUMNS);
    let batch = first;
    while (batch.length > 0) {
      let text = '';
      for (const view of batch) {
        const r = billingRecordJson(view);
        text += csvRow([r.id, r.date, r.type, r.amount, r.model, r.task_id, r.balance_after]);
      }
      yield text;
      if (batch.length < batchSize) return;
      batch = await this.batch(input, range, batchSize, batch[batch.length - 1].seq);
    }
  }
}
