import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { BillingRecordType } from '../rows';

/** One billing record (docs/interface.md, "Billing record"), money still in micro-units. */
export interface RecordView {
  id: string;
  /** UTC day of the record, `YYYY-MM-DD`. */
  date: string;
  type: BillingRecordType;
  amountUnits: number;
  balanceAfterUnits: number;
  model: string | null;
  taskId: string | null;
  /** The account's record number (1 = oldest); the export's cursor. */
  seq: number;
}

export interface RecordPage {
  total: number;
  records: RecordView[];
}

export interface UsageByCategory {
  category: string;
  tasks: number;
  costUnits: number;
}

interface RecordViewRow {
  id: string;
  date: string;
  type: BillingRecordType;
  amount_units: number;
  balance_after_units: number;
  model: string | null;
  task_id: string | null;
  seq: number;
}

const VIEW_COLUMNS = `r.id, to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, r.type,
  r.amount_units, r.balance_after_units, r.model, r.task_id, r.seq`;

function viewFromRow(row: RecordViewRow): RecordView {
  return {
    id: row.id,
    date: row.date,
    type: row.type,
    amountUnits: row.amount_units,
    balanceAfterUnits: row.balance_after_units,
    model: row.model,
    taskId: row.task_id,
    seq: row.seq,
  };
}

/**
 * The ledger's reads for an account: billing pages, usage rollups, export
 * batches. Every query is scoped by account and served by an index range.
 */
@Injectable()
export class BillingHistoryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One page, newest first. Records are numbered densely per account (`seq`)
   * and per account and type (`type_seq`), and the balance row holds the
   * counts, so page N is the seq range (count − N·size, count − (N−1)·size]:
   * an index range of `size` rows however deep the page. One statement, so
   * the total and the rows come from one snapshot.
   */
  async pageRecords(input: {
    accountId: string;
    type?: BillingRecordType;
    /** Only this key's records: see pageKeyRecords. */
    apiKeyId?: string;
    offset: number;
    limit: number;
  }): Promise<RecordPage> {
    if (input.apiKeyId !== undefined)
      return this.pageKeyRecords({ ...input, apiKeyId: input.apiKeyId });
    const byType = input.type !== undefined;
    const total = byType
      ? `CASE WHEN $4 = 'top-up' THEN topup_count ELSE usage_count END`
      : 'record_count';
    const column = byType ? 'type_seq' : 'seq';
    const rows: (Partial<RecordViewRow> & { total: number })[] = await this.dataSource.query(
      `WITH b AS (SELECT ${total} AS total FROM billing.balances WHERE account_id = $1)
       SELECT b.total, p.* FROM b LEFT JOIN LATERAL (
         SELECT ${VIEW_COLUMNS} FROM billing.records r
          WHERE r.account_id = $1 ${byType ? 'AND r.type = $4' : ''}
            AND r.${column} <= b.total - $2 AND r.${column} > b.total - $2 - $3
          ORDER BY r.${column} DESC) p ON true`,
      byType
        ? [input.accountId, input.offset, input.limit, input.type]
        : [input.accountId, input.offset, input.limit],
    );
    return {
      total: rows[0]?.total ?? 0,
      records: rows.filter((row) => row.id != null).map((row) => viewFromRow(row as RecordViewRow)),
    };
  }

  /**
   * One page of one key's records (issue 37), newest first: the key's index
   * range (account, key, time, seq) read by offset, and its count, in one
   * statement. Only usage records carry a key, so a `top-up` filter is empty.
   */
  private async pageKeyRecords(input: {
    accountId: string;
    type?: BillingRecordType;
    apiKeyId: string;
    offset: number;
    limit: number;
  }): Promise<RecordPage> {
    const typed = input.type !== undefined ? 'AND r.type = $5' : '';
    const rows: (Partial<RecordViewRow> & { total: number })[] = await this.dataSource.query(
      `WITH t AS (SELECT count(*)::bigint AS total FROM billing.records r
                   WHERE r.account_id = $1 AND r.api_key_id = $2 ${typed})
       SELECT t.total, p.* FROM t LEFT JOIN LATERAL (
         SELECT ${VIEW_COLUMNS} FROM billing.records r
          WHERE r.account_id = $1 AND r.api_key_id = $2 ${typed}
          ORDER BY r.created_at DESC, r.seq DESC OFFSET $3 LIMIT $4) p ON true`,
      input.type !== undefined
        ? [input.accountId, input.apiKeyId, input.offset, input.limit, input.type]
        : [input.accountId, input.apiKeyId, input.offset, input.limit],
    );
    return {
      total: rows[0]?.total ?? 0,
      records: rows.filter((row) => row.id != null).map((row) => viewFromRow(row as RecordViewRow)),
    };
  }

  /** One key's tasks and cost per category over inclusive UTC days, from its usage records. */
  async keyUsageByCategory(input: {
    accountId: string;
    apiKeyId: string;
    startDate: string;
    endDate: string;
  }): Promise<UsageByCategory[]> {
    const rows: { category: string; tasks: number; cost_units: number }[] =
      await this.dataSource.query(
        `SELECT r.category, count(*)::bigint AS tasks, (-sum(r.amount_units))::bigint AS cost_units
           FROM billing.records r
          WHERE r.account_id = $1 AND r.api_key_id = $2 AND r.type = 'usage'
            AND r.created_at >= ($3::date)::timestamp AT TIME ZONE 'UTC'
            AND r.created_at < ($4::date + 1)::timestamp AT TIME ZONE 'UTC'
          GROUP BY r.category ORDER BY r.category`,
        [input.accountId, input.apiKeyId, input.startDate, input.endDate],
      );
    return rows.map((row) => ({
      category: row.category,
      tasks: row.tasks,
      costUnits: row.cost_units,
    }));
  }

  /** Tasks and cost per category over inclusive UTC days, from the daily rollup. */
  async usageByCategory(input: {
    accountId: string;
    startDate: string;
    endDate: string;
  }): Promise<UsageByCategory[]> {
    const rows: { category: string; tasks: number; cost_units: number }[] =
      await this.dataSource.query(
        `SELECT category, sum(tasks)::bigint AS tasks, sum(cost_units)::bigint AS cost_units
           FROM billing.usage_daily
          WHERE account_id = $1 AND day BETWEEN $2::date AND $3::date
          GROUP BY category ORDER BY category`,
        [input.accountId, input.startDate, input.endDate],
      );
    return rows.map((row) => ({
      category: row.category,
      tasks: row.tasks,
      costUnits: row.cost_units,
    }));
  }

  /**
   * The next batch of an export over inclusive UTC days, newest first
   * (created_at, then seq). `afterSeq` is the last record of the previous
   * batch; the keyset continues strictly after it, so batches never overlap
   * or skip, whatever is written meanwhile.
   */
  async exportBatch(input: {
    accountId: string;
    startDate: string;
    endDate: string;
    type?: BillingRecordType;
    /** Only this key's records (issue 37). */
    apiKeyId?: string;
    afterSeq?: number;
    limit: number;
  }): Promise<RecordView[]> {
    const params: unknown[] = [input.accountId, input.startDate, input.endDate, input.limit];
    let where = '';
    if (input.apiKeyId !== undefined) {
      params.push(input.apiKeyId);
      where += ` AND r.api_key_id = $${params.length}`;
    }
    if (input.type !== undefined) {
      params.push(input.type);
      where += ` AND r.type = $${params.length}`;
    }
    if (input.afterSeq !== undefined) {
      params.push(input.afterSeq);
      where += ` AND (r.created_at, r.seq) < (
        SELECT c.created_at, c.seq FROM billing.records c WHERE c.account_id = $1 AND c.seq = $${params.length})`;
    }
    const rows: RecordViewRow[] = await this.dataSource.query(
      `SELECT ${VIEW_COLUMNS} FROM billing.records r
        WHERE r.account_id = $1
          AND r.created_at >= ($2::date)::timestamp AT TIME ZONE 'UTC'
          AND r.created_at < ($3::date + 1)::timestamp AT TIME ZONE 'UTC'${where}
        ORDER BY r.created_at DESC, r.seq DESC
        LIMIT $4`,
      params,
    );
    return rows.map(viewFromRow);
  }
}
