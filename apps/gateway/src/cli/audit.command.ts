import { DataSource } from 'typeorm';
import { LedgerAuditRepository } from '@genhub/billing-data-access';
import { AuditLedgerUseCase, type LedgerAuditReport } from '@genhub/billing-feature';
import { DatabaseConfig, LedgerAuditConfig, loadConfig } from '@genhub/config';
import { dataSourceOptions, initializeDataSource } from '@genhub/database';
import { registerAdminCommand } from './admin/admin-command.util';

/** The audit's text: a summary when clean, one line per failing account and rule otherwise. */
export function formatAuditReport(report: LedgerAuditReport): string {
  const summary =
    `${report.accounts} account(s), ${report.records} record(s), ` +
    `${report.openReservations} open reservation(s), horizon ${report.horizonMs} ms`;
  if (report.ok) return `ledger audit: OK — ${summary}\n`;
  const lines = report.failing.flatMap((a) =>
    a.problems.map((p) => `account ${a.accountId} (${a.currency}): ${p}\n`),
  );
  return `ledger audit: FAILED for ${report.failing.length} account(s) — ${summary}\n${lines.join('')}`;
}

/**
 * `npm run admin -- audit [--json]`: checks every account's ledger
 * (AuditLedgerUseCase). Exit code 0 when every rule holds, 1 otherwise, with
 * each failing account named on stdout.
 */
export async function runAuditCommand(
  args: string[],
  env: Record<string, string | undefined>,
  out: (text: string) => void,
): Promise<number> {
  const { DATABASE_URL, DATABASE_TLS_CA } = loadConfig(DatabaseConfig, env);
  const { LEDGER_AUDIT_HORIZON_MS } = loadConfig(LedgerAuditConfig, env);
  const dataSource = new DataSource(
    dataSourceOptions({
      url: DATABASE_URL,
      tlsCa: DATABASE_TLS_CA,
      poolSize: 1,
      applicationName: 'audit',
    }),
  );
  await initializeDataSource(dataSource);
  try {
    const report = await new AuditLedgerUseCase(new LedgerAuditRepository(dataSource)).execute({
      horizonMs: LEDGER_AUDIT_HORIZON_MS,
    });
    out(
      args.includes('--json') ? `${JSON.stringify(report, null, 2)}\n` : formatAuditReport(report),
    );
    return report.ok ? 0 : 1;
  } finally {
    await dataSource.destroy();
  }
}

registerAdminCommand({
  name: 'audit',
  usage: 'audit [--json]',
  summary: "check every account's ledger; exit 1 naming each account that does not hold",
  arity: 0,
  report: (args, env, out) => runAuditCommand(args.flags.json ? ['--json'] : [], env, out),
});
