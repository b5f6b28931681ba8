import { Injectable, OnModuleInit } from '@nestjs/common';
import { LedgerAuditRepository } from '@genhub/billing-data-access';
import { MetricsService } from '@genhub/observability';

/** Open reservations right now (read on scrape from a partial index): a stuck settle shows here. */
@Injectable()
export class OpenReservationsMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly audit: LedgerAuditRepository,
  ) {}

  onModuleInit(): void {
    const audit = this.audit;
    this.metrics.gauge({
      name: 'billing_open_reservations',
      help: 'Reservations not yet captured or released',
      async collect() {
        try {
          this.set(await audit.openReservationCount());
        } catch {
          // PostgreSQL down: /ready reports it; keep the last value.
        }
      },
    });
  }
}
