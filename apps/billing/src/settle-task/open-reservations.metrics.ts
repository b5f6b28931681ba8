import { Injectable, OnModuleInit } from '@nestjs/common';
import { LedgerAuditRepository } from '@genhub/billing-data-access';
import { METRICS, MetricsService } from '@genhub/observability';

/** Open reservations right now (read on scrape from a partial index): a stuck settle shows here. */
@Injectable()
export class OpenReservationsMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly audit: LedgerAuditRepository,
  ) {}

  onModuleInit(): void {
    const audit = this.audit;
    this.metrics.gauge(METRICS.openReservations, async function collect() {
      try {
        this.set(await audit.openReservationCount());
      } catch {
        // PostgreSQL down: /ready reports it; keep the last value.
      }
    });
  }
}
