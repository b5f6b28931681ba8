import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import {
  AuditLedgerUseCase,
  ReleaseOrphanedChatReservationsUseCase,
} from '@genhub/billing-feature';
import { LedgerAuditConfig } from '@genhub/config';
import { METRICS, MetricsService } from '@genhub/observability';

/** The first audit runs soon after start, not a whole interval later. */
const FIRST_RUN_MAX_DELAY_MS = 60_000;

/**
 * Runs the ledger audit every LEDGER_AUDIT_INTERVAL_MS and exposes its result:
 * runs by result, failing accounts, time of the last run. Each billing replica
 * audits on its own (read-only; replicas are few), so its metrics are never stale.
 * Just before, it releases chat reservations orphaned for longer than the
 * audit's horizon (a gateway that died mid-stream); releasing is conditional
 * per reservation, so replicas doing it at once release each one once.
 */
@Injectable()
export class LedgerAuditScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LedgerAuditScheduler.name);
  private readonly runs;
  private readonly failing;
  private readonly lastRun;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly audit: AuditLedgerUseCase,
    private readonly releaseOrphans: ReleaseOrphanedChatReservationsUseCase,
    private readonly config: LedgerAuditConfig,
    metrics: MetricsService,
  ) {
    this.runs = metrics.counter(METRICS.ledgerAuditRuns);
    this.failing = metrics.gauge(METRICS.ledgerAuditFailingAccounts);
    this.lastRun = metrics.gauge(METRICS.ledgerAuditLastRun);
  }

  onApplicationBootstrap(): void {
    const every = this.config.LEDGER_AUDIT_INTERVAL_MS;
    if (!every) return;
    const loop = (delay: number) => {
      this.timer = setTimeout(() => void this.runOnce().finally(() => loop(every)), delay);
      this.timer.unref();
    };
    loop(Math.min(every, FIRST_RUN_MAX_DELAY_MS));
  }

  onApplicationShutdown(): void {
    clearTimeout(this.timer);
  }

  async runOnce(): Promise<void> {
    try {
      const horizonMs = this.config.LEDGER_AUDIT_HORIZON_MS;
      const orphans = await this.releaseOrphans.execute({ olderThanMs: horizonMs });
      if (orphans.released)
        this.logger.warn(
          { released: orphans.released, amount_units: orphans.amountUnits },
          `released ${orphans.released} chat reservation(s) open for over ${horizonMs} ms (their gateway stopped mid-stream)`,
        );
      const report = await this.audit.execute({ horizonMs });
      this.runs.inc({ result: report.ok ? 'ok' : 'failed' });
      this.failing.set(report.failing.length);
      this.lastRun.set(Date.now() / 1000);
      if (!report.ok)
        this.logger.error(
          { failing: report.failing.map((a) => a.accountId) },
          `ledger audit failed for ${report.failing.length} account(s)`,
        );
    } catch (error) {
      this.runs.inc({ result: 'error' });
      this.logger.warn(`ledger audit could not run: ${(error as Error).message}`);
    }
  }
}
