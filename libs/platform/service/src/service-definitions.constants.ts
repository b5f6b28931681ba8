import {
  AdminConfig,
  ChatConfig,
  ConsoleConfig,
  CorsConfig,
  DatabaseConfig,
  HttpConfig,
  LedgerAuditConfig,
  ListenConfig,
  LogConfig,
  MetricsConfig,
  ModeConfig,
  PepperConfig,
  ProvidersConfig,
  ProxyConfig,
  RedisConfig,
  SecurityConfig,
  ShutdownConfig,
  StorageConfig,
  StuckTaskSweepConfig,
  TaskConfig,
  TracingConfig,
  UploadQuotaConfig,
  WebhookConfig,
} from '@genhub/config';

/** A validated configuration class (one group of environment variables). */
export type ConfigPiece = new () => object;

/** What a deployable app loads from the environment, and its own defaults. */
export interface ServiceDefinition {
  /** The pieces its ConfigModule validates at start-up. */
  readonly pieces: readonly ConfigPiece[];
  /** Defaults that differ from the pieces' own (its port, first of all). */
  readonly defaults: Readonly<Record<string, string>>;
}

/** Every app runs in a mode (production or not), listens, logs, shuts down, and reaches PostgreSQL and Redis. */
const EVERY_APP: readonly ConfigPiece[] = [
  ModeConfig,
  HttpConfig,
  ListenConfig,
  LogConfig,
  ShutdownConfig,
  DatabaseConfig,
  RedisConfig,
  SecurityConfig,
  // Whose X-Forwarded-* headers each app's HTTP server believes (bootstrapService).
  ProxyConfig,
];

/**
 * The four apps, the one list of what each reads: their modules load these
 * pieces, and the deployment checks (`deploy/`) accept exactly these variables.
 */
export const SERVICES = {
  gateway: {
    pieces: [
      ...EVERY_APP,
      // Hashes API keys and signs tokens; its /metrics shares the public port.
      PepperConfig,
      MetricsConfig,
      StorageConfig,
      AdminConfig,
      CorsConfig,
      ConsoleConfig,
      TaskConfig,
      ChatConfig,
      ProvidersConfig,
      UploadQuotaConfig,
    ],
    defaults: { PORT: '3000' },
  },
  'task-worker': {
    pieces: [...EVERY_APP, StorageConfig, TaskConfig, ProvidersConfig, StuckTaskSweepConfig],
    defaults: { PORT: '3001' },
  },
  'webhook-dispatcher': {
    pieces: [...EVERY_APP, WebhookConfig],
    // Up to WEBHOOK_CONCURRENCY short queries at once: a larger pool than the others'.
    defaults: { PORT: '3002', DATABASE_POOL_SIZE: '30' },
  },
  billing: {
    pieces: [...EVERY_APP, LedgerAuditConfig],
    defaults: { PORT: '3003' },
  },
} as const satisfies Record<string, ServiceDefinition>;

export type ServiceName = keyof typeof SERVICES;

export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];

/**
 * Everything an app reads from the environment: its pieces and the tracing
 * settings, which its `tracing.ts` reads before the application exists.
 */
export function environmentPiecesOf(service: ServiceName): readonly ConfigPiece[] {
  return [...SERVICES[service].pieces, TracingConfig];
}
