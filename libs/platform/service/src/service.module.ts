import { DynamicModule, Module, OnModuleInit } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ConfigModule, DatabaseConfig, SecurityConfig, trustedCas } from '@genhub/config';
import { DatabaseModule, databaseIdentity } from '@genhub/database';
import { ObservabilityModule, QueueDepthMetrics, ReadinessRegistry } from '@genhub/observability';
import { trustForOutboundFetch } from '@genhub/outbound';
import { PubSubService, QueueModule, QueuePrefixOwnership } from '@genhub/queue';
import { SERVICES, type ServiceName } from './service-definitions.constants';

/**
 * What every app is made of before its own work: validated configuration,
 * logs, metrics and probes, the database pool, the queues with their depth
 * metrics, and Redis in the readiness check. The queue prefix is claimed for
 * the app's database before any job moves (decision 0126). An app module imports
 * `ServiceModule.forRoot('<app>', env)` and adds its features.
 */
@Module({})
export class ServiceModule implements OnModuleInit {
  constructor(
    private readonly readiness: ReadinessRegistry,
    private readonly pubsub: PubSubService,
    private readonly ownership: QueuePrefixOwnership,
    private readonly security: SecurityConfig,
  ) {}

  static forRoot(service: ServiceName, env: NodeJS.ProcessEnv): DynamicModule {
    const { pieces, defaults } = SERVICES[service];
    return {
      module: ServiceModule,
      imports: [
        ConfigModule.forRoot({ pieces: [...pieces], env, defaults }),
        ObservabilityModule.forRoot(service),
        DatabaseModule,
        QueueModule.forRoot({
          installation: {
            inject: [getDataSourceToken(), DatabaseConfig],
            useFactory: (dataSource: DataSource, database: DatabaseConfig) => () =>
              databaseIdentity(dataSource, database.DATABASE_URL),
          },
        }),
      ],
      providers: [QueueDepthMetrics],
    };
  }

  onModuleInit(): void {
    // Upstream providers' fetch trusts OUTBOUND_TLS_CA too (webhooks and media have their own agents).
    trustForOutboundFetch(trustedCas(this.security.OUTBOUND_TLS_CA));
    this.readiness.register('redis', () => this.pubsub.ping());
    this.readiness.register('queue-prefix', async () => this.ownership.assertVerified());
  }
}
