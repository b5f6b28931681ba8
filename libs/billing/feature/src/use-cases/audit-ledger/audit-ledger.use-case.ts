import { Injectable } from '@nestjs/common';
import { type AccountLedgerFacts, LedgerAuditRepository } from '@genhub/billing-data-access';
import { formatAmount } from '@genhub/money';

/**
 * How old an open reservation may be before the audit calls it stuck: the
 * longest a task can take (queue wait, the 10-minute model time limit, worker
 * retries) plus a margin. Configurable (LEDGER_AUDIT_HORIZON_MS).
 */
export const DEFAULT_AUDIT_HORIZON_MS = 60 * 60 * 1000;

export interface AuditLedgerInput {
  horizonMs?: number;
}

export interface AccountAudit {
  accountId: string;
  currency: string;
  balance: string;
  reserved: string;
  records: number;
  openReservations: number;
  /** Empty when every rule holds. */
  problems: string[];
}

export interface LedgerAuditReport {
  ok: boolean;
  horizonMs: number;
  accounts: number;
  records: number;
  openReservations: number;
  /** Every account that breaks a rule, with what it breaks. */
  failing: AccountAudit[];
}

/** The rules one account's ledger must keep (docs/interface.md, "Billing semantics"). */
export function auditAccount(f: AccountLedgerFacts, horizonMs: number): AccountAudit {
  const problems: string[] = [];
  const amount = (units: number) => formatAmount(units, 6);
  if (f.recordsSumUnits !== f.balanceUnits)
    problems.push(
      `sum of records ${amount(f.recordsSumUnits)} != balance ${amount(f.balanceUnits)}`,
    );
  if (f.openSumUnits !== f.reservedUnits)
    problems.push(
      `open reservations ${amount(f.openSumUnits)} != reserved ${amount(f.reservedUnits)}`,
    );
  if (f.balanceUnits < f.reservedUnits)
    problems.push(`balance ${amount(f.balanceUnits)} < reserved ${amount(f.reservedUnits)}`);
  if (f.staleOpenCount > 0)
    problems.push(
      `${f.staleOpenCount} open reservation(s) older than ${horizonMs} ms (oldest ${f.oldestOpenAt?.toISOString()})`,
    );
  if (f.recordRows !== f.recordCount)
    problems.push(`${f.recordRows} records but record_count ${f.recordCount}`);
  if (f.recordCount > 0 && f.lastBalanceAfterUnits !== f.balanceUnits)
    problems.push(
      `newest record's balance_after ${f.lastBalanceAfterUnits === null ? 'missing' : amount(f.lastBalanceAfterUnits)} != balance ${amount(f.balanceUnits)}`,
    );
  if (f.usageCostUnits !== f.rollupCostUnits || f.usageRows !== f.rollupTasks)
    problems.push(
      `usage rollup ${f.rollupTasks} tasks / ${amount(f.rollupCostUnits)} != usage records ${f.usageRows} / ${amount(f.usageCostUnits)}`,
    );
  if (f.keySpendMismatches > 0)
    problems.push(
      `${f.keySpendMismatches} of ${f.keySpendRows} key spend counter(s) != their open reservations + charges`,
    );
  return {
    accountId: f.accountId,
    currency: f.currency,
    balance: amount(f.balanceUnits),
    reserved: amount(f.reservedUnits),
    records: f.recordRows,
    openReservations: f.openCount,
    problems,
  };
}

/**
 * Checks every account's ledger: the records add up to the balance, the open
 * reservations to the reserved amount, the balance covers the reservations,
 * no reservation has been open longer than any task can run, the counters
 * and the usage rollup agree with the records, and each key's spend counter
 * with the reservations and charges it counts. Read-only, one snapshot.
 */
@Injectable()
export class AuditLedgerUseCase {
  constructor(private readonly audit: LedgerAuditRepository) {}

  async execute(input: AuditLedgerInput = {}): Promise<LedgerAuditReport> {
    const horizonMs = input.horizonMs ?? DEFAULT_AUDIT_HORIZON_MS;
    const facts = await this.audit.accountFacts({ horizonMs });
    const audits = facts.map((f) => auditAccount(f, horizonMs));
    const failing = audits.filter((a) => a.problems.length > 0);
    return {
      ok: failing.length === 0,
      horizonMs,
      accounts: audits.length,
      records: audits.reduce((n, a) => n + a.records, 0),
      openReservations: audits.reduce((n, a) => n + a.openReservations, 0),
      failing,
    };
  }
}
