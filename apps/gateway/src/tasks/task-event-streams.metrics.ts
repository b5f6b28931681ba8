import { Injectable, OnModuleInit } from '@nestjs/common';
import { METRICS, MetricsService } from '@genhub/observability';
import { TaskEventsHub } from '@genhub/tasks-feature';

/** Open task event streams, read on scrape: a leak shows as a gauge that never returns to zero. */
@Injectable()
export class TaskEventStreamsMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly hub: TaskEventsHub,
  ) {}

  onModuleInit(): void {
    const hub = this.hub;
    this.metrics.gauge(METRICS.taskEventStreams, function collect() {
      this.set(hub.openStreams);
    });
  }
}
