import {
  ArrayMaxSize,
  ArrayMinSize,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { EmptyAsUnset, ToBool, ToInt, ToIntList, ToList } from './env.decorator';
import {
  type PostgresConnection,
  postgresConnection,
  postgresTlsProblem,
} from './postgres-connection.util';
import { IsCaBundle } from './tls-ca.util';
import {
  GENERATE_SECRET,
  InProduction,
  PRODUCTION_MODE,
  ProductionDefault,
  secret,
} from './production-mode.util';

/** Keys a piece marks sensitive are never printed (config dumps, error lines). */
export const SENSITIVE_KEYS = new Set([
  'DATABASE_URL',
  'REDIS_URL',
  'REDIS_PASSWORD',
  'REDIS_SENTINEL_PASSWORD',
  'S3_SECRET_ACCESS_KEY',
  'ADMIN_TOKEN',
  'API_KEY_PEPPER',
  'METRICS_TOKEN',
]);

const URL_OPTS = { require_tld: false, require_protocol: true } as const;

export class HttpConfig {
  /** Each app has its own default port (gateway 3000, workers 3001–3003). */
  @ToInt()
  @IsInt({ message: 'must be an integer from 1 to 65535' })
  @Min(1)
  @Max(65535)
  PORT!: number;

  /** Body limit of JSON requests, in bytes. */
  @ToInt()
  @IsInt()
  @Min(1024)
  @Max(64 * 1024 * 1024)
  BODY_LIMIT_BYTES = 1024 * 1024;
}

export class LogConfig {
  @EmptyAsUnset()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';
}

export class ShutdownConfig {
  /** How long SIGTERM waits for in-flight work before closing anyway. */
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_GRACE_MS = 25_000;
}

export class DatabaseConfig {
  /** `sslmode` (disable, require, verify-ca, verify-full) as libpq reads it (decision 0138). */
  @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// connection string' })
  @ValidateBy({
    name: 'hasUsableTlsParameters',
    validator: {
      validate: (url: unknown) => typeof url === 'string' && !postgresTlsProblem(url),
      defaultMessage: (args) => postgresTlsProblem(String(args?.value)) ?? 'is invalid',
    },
  })
  DATABASE_URL!: string;

  /** The CA bundle PostgreSQL's certificate is verified against: a PEM file's path or PEM text. Unset: the system's CAs. */
  @EmptyAsUnset()
  @IsOptional()
  @IsCaBundle()
  DATABASE_TLS_CA?: string;

  /** What node-postgres takes: the URL without its TLS parameters, and the TLS options they and the CA make. */
  get connection(): PostgresConnection {
    return postgresConnection(this.DATABASE_URL, this.DATABASE_TLS_CA);
  }

  @ToInt()
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE = 10;
}

export class StorageConfig {
  @EmptyAsUnset()
  @IsOptional()
  @IsUrl(URL_OPTS)
  S3_ENDPOINT?: string;

  @EmptyAsUnset()
  @ValidateIf((c: StorageConfig) => !!c.S3_ENDPOINT)
  @IsString()
  @MinLength(3)
  S3_BUCKET?: string;

  @EmptyAsUnset()
  @IsString()
  S3_REGION = 'us-east-1';

  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  S3_ACCESS_KEY_ID?: string;

  /** In production: not a known value, and set whenever S3_ACCESS_KEY_ID is (decision 0127). */
  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  @InProduction(
    secret({
      // Issued by the storage provider in its own format (AWS 40 characters, Backblaze B2 31).
      minLength: 24,
      required: (c) => (c as StorageConfig).usesS3 && !!(c as StorageConfig).S3_ACCESS_KEY_ID,
      hint: 'use the key your storage provider issued (MinIO: the root password or a user secret made with `openssl rand -hex 32`)',
    }),
  )
  S3_SECRET_ACCESS_KEY?: string;

  @ToBool()
  @IsBoolean()
  S3_FORCE_PATH_STYLE = false;

  /** A private CA the S3 endpoint's certificate is verified against (besides the system's): a PEM file's path or PEM text. */
  @EmptyAsUnset()
  @IsOptional()
  @IsCaBundle()
  S3_TLS_CA?: string;

  /** Local-disk driver's root (used when S3_ENDPOINT is unset). */
  @EmptyAsUnset()
  @IsString()
  STORAGE_DIR = '.data/objects';

  /**
   * The gateway's public address: file URLs (the default CDN_URL) and the links
   * in answers start with it. Unset: file URLs use http://127.0.0.1:3000 and
   * links the address the client called (`npm start` sets it to the gateway it starts).
   */
  @EmptyAsUnset()
  @IsOptional()
  @IsUrl(URL_OPTS)
  PUBLIC_BASE_URL?: string;

  @EmptyAsUnset()
  @IsOptional()
  @IsUrl(URL_OPTS)
  CDN_URL?: string;

  get cdnUrl(): string {
    const base = (this.PUBLIC_BASE_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
    return (this.CDN_URL ?? `${base}/cdn`).replace(/\/+$/, '');
  }

  get usesS3(): boolean {
    return !!this.S3_ENDPOINT;
  }
}

export class AdminConfig {
  /** Unset: the admin API answers 404 everywhere. In production: required, 32+ characters, not a known value. */
  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters' })
  @InProduction(secret({ minLength: 32, distinctFrom: ['API_KEY_PEPPER'] }))
  ADMIN_TOKEN?: string;
}

/** An origin as browsers send it: scheme, host and optional port, or `*`. */
const ORIGIN = /^(\*|https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?)$/;

/**
 * Which web origins may call the gateway from a browser (CORS). Unset: none.
 * `*` allows any origin (no credentials are ever allowed: the API key travels
 * in the Authorization header, never a cookie).
 */
export class CorsConfig {
  @ToList()
  @Matches(ORIGIN, { each: true, message: 'must be origins like https://app.example.com, or *' })
  CORS_ALLOWED_ORIGINS: string[] = [];

  /** The admin API answers no preflight unless its own origins are set. */
  @ToList()
  @Matches(ORIGIN, { each: true, message: 'must be origins like https://ops.example.com, or *' })
  CORS_ADMIN_ALLOWED_ORIGINS: string[] = [];
}

/** The web console's static build, served by the gateway at /console when set (`npm start` sets it). */
export class ConsoleConfig {
  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  // A directory without the build is a start-up error, never a silent 404.
  @ValidateBy({
    name: 'holdsConsoleBuild',
    validator: {
      validate: (dir: unknown) => typeof dir === 'string' && existsSync(join(dir, 'index.html')),
      defaultMessage: () =>
        'must be a directory holding the console build (index.html): run `npx nx build console`, or unset it',
    },
  })
  CONSOLE_DIR?: string;
}

export class SecurityConfig {
  @ToBool()
  @IsBoolean()
  ALLOW_PRIVATE_NETWORK_URLS = false;

  /**
   * A private CA that outbound HTTPS (webhooks, media fetches, upstream
   * providers) trusts besides the system's: a PEM file's path or PEM text.
   * Certificates are always verified; this only adds a root.
   */
  @EmptyAsUnset()
  @IsOptional()
  @IsCaBundle()
  OUTBOUND_TLS_CA?: string;
}

export class TaskConfig {
  @ToInt()
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  SYNC_TIMEOUT_MS = 600_000;

  @ToInt()
  @IsInt()
  @Min(1)
  @Max(1000)
  TASK_CONCURRENCY = 50;

  /**
   * The simulator lets any account hold a worker slot for up to 10 minutes and
   * choose a failure (refunded): off by default in production, refused there (decision 0127).
   */
  @ToBool()
  @IsBoolean()
  @ProductionDefault('false')
  @InProduction((enabled) =>
    enabled === true
      ? `must be false in production (${PRODUCTION_MODE}): the simulator lets any account hold worker slots and choose refunded failures (got "true")`
      : undefined,
  )
  ENABLE_SIMULATOR = true;

  /** The offline generators of the `local` provider (image, speech, video). */
  @ToBool()
  @IsBoolean()
  ENABLE_LOCAL_MODELS = true;

  /**
   * Free worker slots go to the accounts with tasks waiting in turn, weighted
   * by level (decision 0133). Off: one first-in first-out line, as before
   * (the bench compares the two).
   */
  @ToBool()
  @IsBoolean()
  FAIR_SCHEDULING = true;

  /** BullMQ lock of a running task job; a worker silent this long is presumed dead and its job re-run. */
  @ToInt()
  @IsInt()
  @Min(1000)
  @Max(600_000)
  TASK_LOCK_MS = 30_000;

  @ToList()
  @IsString({ each: true })
  CONTENT_BLOCKLIST: string[] = [];
}

/** The task-worker's stuck-task sweeper (decision 0023). */
export class StuckTaskSweepConfig {
  /** How often each task-worker tries to sweep (one at a time, by a PostgreSQL advisory lock). */
  @ToInt()
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  STUCK_TASK_SWEEP_INTERVAL_MS = 60_000;

  /**
   * A task is stuck once it has been processing (since its last claim), or
   * waiting in `created` (since submit), for its time limit plus this long.
   * Covers queue waits and stalled-job recovery (a few TASK_LOCK_MS).
   */
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(24 * 3_600_000)
  STUCK_TASK_GRACE_MS = 600_000;
}

export class ProvidersConfig {
  /** JSON file of upstream providers and their models (docs/providers.example.json); unset: only `local`. */
  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  PROVIDERS_FILE?: string;

  /**
   * The environment, kept (frozen, not enumerable) for the variables a providers
   * file names as `api_key_env`: their names are only known once the file is read.
   */
  static readonly keepsEnvironment = true;
  declare readonly environment: Readonly<Record<string, string | undefined>>;
}

/**
 * Per-account upload quotas (decision 0129): storage quotas that stop abuse,
 * not limits on tasks (which have none). 0 turns a quota off.
 */
export class UploadQuotaConfig {
  /**
   * Bytes an account's unexpired uploads may hold together (7 days each); a
   * direct upload counts its declared size from its ticket. Default 10 GB.
   */
  @ToInt()
  @IsInt({ message: 'must be a whole number of bytes, 0 for no quota' })
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  UPLOAD_QUOTA_BYTES = 10 * 1024 ** 3;

  /** Uploads (multipart uploads and direct-upload tickets) an account may make per UTC day. */
  @ToInt()
  @IsInt({ message: 'must be a whole number, 0 for no limit' })
  @Min(0)
  @Max(100_000_000)
  UPLOAD_QUOTA_PER_DAY = 10_000;
}

export class WebhookConfig {
  @ToInt()
  @IsInt()
  @Min(100)
  @Max(300_000)
  WEBHOOK_TIMEOUT_MS = 30_000;

  @ToIntList()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @IsInt({ each: true })
  @Min(0, { each: true })
  WEBHOOK_RETRY_DELAYS_MS: number[] = [0, 2000, 4000];

  @ToInt()
  @IsInt()
  @Min(1)
  @Max(10_000)
  WEBHOOK_CONCURRENCY = 200;

  @ToInt()
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_PER_HOST_CONCURRENCY = 10;
}

export class ListenConfig {
  /** Interface to bind; 0.0.0.0 in containers, 127.0.0.1 to stay local. */
  @EmptyAsUnset()
  @IsString()
  HOST = '0.0.0.0';
}

export class LedgerAuditConfig {
  /**
   * The audit flags an open reservation older than this: the longest a task can
   * take (queue wait + the 10-minute model limit + worker retries) plus a margin.
   */
  @ToInt()
  @IsInt()
  @Min(60_000)
  @Max(30 * 24 * 3_600_000)
  LEDGER_AUDIT_HORIZON_MS = 3_600_000;

  /**
   * The billing app runs the audit this often and exposes its result as
   * metrics (the ledger-audit alert reads them); 0 turns the periodic run off.
   */
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(24 * 3_600_000)
  LEDGER_AUDIT_INTERVAL_MS = 900_000;
}

export class TracingConfig {
  /** OpenTelemetry tracing (http, pg, ioredis spans over OTLP/HTTP); off costs nothing. */
  @ToBool()
  @IsBoolean()
  OTEL_ENABLED = false;

  /** OTLP/HTTP base URL; spans go to `<endpoint>/v1/traces`. */
  @EmptyAsUnset()
  @IsUrl(URL_OPTS)
  OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:4318';

  /** Defaults to the app's name (gateway, task-worker, webhook-dispatcher, billing). */
  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  OTEL_SERVICE_NAME?: string;
}

export class ChatConfig {
  /** Exposes the offline `local/chat` model on the chat endpoints. */
  @ToBool()
  @IsBoolean()
  ENABLE_LOCAL_CHAT = true;
}

/**
 * The mode the apps run in: `production` (the Docker image and the Kubernetes
 * manifests set it) turns on the production rules and defaults of every piece
 * an app loads (decision 0127); anything else, or unset, is development.
 */
export class ModeConfig {
  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  NODE_ENV?: string;
}

/**
 * The deployment's secret: the key of the API-key hash (HMAC-SHA256) and of
 * the signed tokens (direct uploads, event streams). No default: `npm start`
 * generates one into `.data/secrets.json`. Changing it invalidates every API key.
 * Only the apps that hash keys or sign tokens load it (the gateway, the admin CLI).
 */
export class PepperConfig {
  @EmptyAsUnset()
  // Environment values are strings: only an unset one fails this.
  @IsString({ message: `is required (no default): ${GENERATE_SECRET}` })
  @MinLength(16, { message: 'must be at least 16 characters' })
  @InProduction(secret({ minLength: 32 }))
  API_KEY_PEPPER!: string;
}

/**
 * The bearer token of the gateway's `/metrics` (it shares the public port).
 * Set: a scrape needs `Authorization: Bearer <METRICS_TOKEN>`; unset: open.
 * Required in production. The workers' `/metrics` is on their private
 * management port and stays open (decision 0127).
 */
export class MetricsConfig {
  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters' })
  @InProduction(secret({ minLength: 32, distinctFrom: ['ADMIN_TOKEN', 'API_KEY_PEPPER'] }))
  METRICS_TOKEN?: string;
}

/** Names proxy-addr (Fastify's trustProxy) understands for address ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY as Fastify's `trustProxy` takes it: `false` (unset, `false`,
 * `0`), a hop count (`1`–`10`), or a list of proxy addresses / CIDRs (or the
 * names loopback, linklocal, uniquelocal). Undefined when it is none of these;
 * `true` (trust any client) is refused on purpose.
 */
export function parseTrustProxy(raw: string | undefined): false | number | string[] | undefined {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops >= 1 && hops <= 10 ? hops : undefined;
  }
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return entries.length > 0 && entries.every(isProxyAddress) ? entries : undefined;
}

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which peers' `X-Forwarded-*` headers are believed (decision 0128). Off by
 * default: `request.protocol`, `request.host` and `request.ip` are the
 * connection's own, so no client chooses the scheme or host of the links in
 * answers. Behind a reverse proxy or load balancer, list its addresses (or
 * give the number of proxy hops).
 */
export class ProxyConfig {
  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  @ValidateBy({
    name: 'isTrustProxy',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && parseTrustProxy(value) !== undefined,
      defaultMessage: () =>
        'must be false, a hop count from 1 to 10, or comma-separated proxy addresses or CIDRs (10.0.0.0/8, loopback)',
    },
  })
  TRUST_PROXY?: string;

  /** The value of Fastify's `trustProxy` option. */
  get trustProxy(): false | number | string[] {
    return parseTrustProxy(this.TRUST_PROXY) ?? false;
  }
}
