import { DynamicModule, Module, OnModuleInit } from '@nestjs/common';
import { ConfigModule } from '@genhub/config';
import { DatabaseModule } from '@genhub/database';
import { ObservabilityModule, QueueDepthMetrics, ReadinessRegistry } from '@genhub/observability';
import { PubSubService, QueueModule } from '@genhub/queue';
import { SERVICES, type ServiceName } from './service-definitions.constants';

/**
 * What every app is made of before its own work: validated configuration,
 * logs, metrics and probes, the database pool, the queues with their depth
 * metrics, and Redis in the readiness check. An app module imports
 * `ServiceModule.forRoot('<app>', env)` and adds its features.
 */
@Module({})
export class ServiceModule implements OnModuleInit {
  constructor(
    private readonly readiness: ReadinessRegistry,
    private readonly pubsub: PubSubService,
  ) {}

  static forRoot(service: ServiceName, env: NodeJS.ProcessEnv): DynamicModule {
    const { pieces, defaults } = SERVICES[service];
    return {
      module: ServiceModule,
      imports: [
        ConfigModule.forRoot({ pieces: [...pieces], env, defaults }),
        ObservabilityModule.forRoot(service),
        DatabaseModule,
        QueueModule.forRoot(),
      ],
      providers: [QueueDepthMetrics],
    };
  }

  onModuleInit(): void {
    this.readiness.register('redis', () => this.pubsub.ping());
  }
}
