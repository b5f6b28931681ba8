import { Global, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import { DatabaseConfig } from '@genhub/config';
import { ReadinessRegistry } from '@genhub/observability';
import { dataSourceOptions, initializeDataSource } from './data-source.factory';

/** The process's PostgreSQL connection pool (no TypeORM entities: decision 0107). */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [DatabaseConfig],
      useFactory: (config: DatabaseConfig) => ({
        ...dataSourceOptions({
          url: config.DATABASE_URL,
          tlsCa: config.DATABASE_TLS_CA,
          poolSize: config.DATABASE_POOL_SIZE,
        }),
        autoLoadEntities: true,
        // Start even while PostgreSQL is down; /ready says so and queries fail fast.
        retryAttempts: 0,
        manualInitialization: false,
      }),
      // A TLS failure stops start-up with one line that says what to change (decision 0138).
      dataSourceFactory: async (options) =>
        initializeDataSource(new DataSource(options as DataSourceOptions)),
    }),
  ],
})
export class DatabaseModule implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly readiness: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    this.readiness.register('postgres', async () => {
      await this.dataSource.query('SELECT 1');
    });
  }
}
