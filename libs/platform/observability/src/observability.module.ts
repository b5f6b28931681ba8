import { DynamicModule, Global, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { LogConfig } from '@genhub/config';
import { HealthController } from './health/health.controller';
import { ReadinessRegistry } from './health/readiness-registry.service';
import { loggerOptions } from './logging/logger-options.config';
import { MetricsController } from './metrics/metrics.controller';
import { MetricsService } from './metrics/metrics.service';

/** Logs, metrics, /health, /ready and /metrics for one service. */
@Global()
@Module({})
export class ObservabilityModule {
  static forRoot(service: string): DynamicModule {
    return {
      module: ObservabilityModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [LogConfig],
          useFactory: (log: LogConfig) => loggerOptions(service, log.LOG_LEVEL),
        }),
      ],
      controllers: [HealthController, MetricsController],
      providers: [
        ReadinessRegistry,
        {
          provide: MetricsService,
          useFactory: () => {
            const metrics = new MetricsService();
            metrics.setServiceLabel(service);
            return metrics;
          },
        },
      ],
      exports: [ReadinessRegistry, MetricsService],
    };
  }
}
