import { DynamicModule, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyServerOptions } from 'fastify';
import { Logger, PinoLogger } from 'nestjs-pino';
import {
  ConfigError,
  HttpConfig,
  ListenConfig,
  loadConfig,
  ProxyConfig,
  RedisConfig,
  ShutdownConfig,
} from '@genhub/config';
import { checkRedisCertificates } from '@genhub/queue';
import { HttpMetrics } from '../metrics/http-metrics.service';
import { MetricsService } from '../metrics/metrics.service';
import { requestId } from '../logging/logger-options.config';
import { RequestLog } from '../logging/request-log.service';

export interface BootstrapOptions {
  service: string;
  /** Builds the root module from the environment; throws ConfigError on a bad variable. */
  module: (env: NodeJS.ProcessEnv) => DynamicModule;
  env: NodeJS.ProcessEnv;
  /** Extra set-up on the created app (filters, plugins, routes) before listen. */
  configure?: (app: NestFastifyApplication) => Promise<void> | void;
  /** Extra Fastify server options (e.g. the gateway's bodyLimit); may throw ConfigError. */
  fastifyOptions?: (env: NodeJS.ProcessEnv) => FastifyServerOptions;
}

/**
 * Starts one service: validated configuration, Fastify, JSON logs, HTTP
 * metrics, and graceful shutdown (SIGTERM stops intake, lets in-flight work
 * finish for SHUTDOWN_GRACE_MS, then exits). A service that cannot finish
 * starting — bad configuration, a dependency that throws, a Redis TLS
 * certificate it refuses, a port in use — exits 1 with one line on stderr;
 * once up, an unhandled rejection or exception ends it too (decision 0101).
 */
export async function bootstrapService(options: BootstrapOptions): Promise<INestApplication> {
  try {
    return await start(options);
  } catch (error) {
    process.stderr.write(`${options.service}: failed to start: ${describe(error)}\n`);
    process.exit(1);
  }
}

/** One line: the error's own message (and its code, e.g. EADDRINUSE, when it has one). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const message = error.message.split('\n')[0];
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

async function start(options: BootstrapOptions): Promise<INestApplication> {
  let rootModule: DynamicModule;
  let fastifyOptions: FastifyServerOptions = {};
  try {
    rootModule = options.module(options.env);
    fastifyOptions = {
      ...options.fastifyOptions?.(options.env),
      ...serviceFastifyOptions(options.env),
    };
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${options.service}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  // A Redis certificate this app refuses (a wrong REDIS_TLS_CA, a name the
  // certificate does not cover) never mends by itself: one line now, before
  // any module waits on a connection that cannot come (decision 0139).
  await checkRedisCertificates(loadConfig(RedisConfig, options.env).topology);

  const adapter = new FastifyAdapter(fastifyOptions);
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    bufferLogs: true,
    abortOnError: false,
    // A failed start is our one line (0101): Nest's buffered logs (a retry
    // notice, the error with its stack) are printed only once it succeeded.
    autoFlushLogs: false,
  });
  const logger = app.get(Logger);
  app.useLogger(logger);
  app.flushLogs();

  const fastify = app.getHttpAdapter().getInstance();
  new HttpMetrics(app.get(MetricsService)).install(fastify);
  new RequestLog(() => PinoLogger.root).install(fastify);

  await options.configure?.(app);

  const grace = app.get(ShutdownConfig).SHUTDOWN_GRACE_MS;
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.log(`${signal} received: draining for up to ${grace} ms`);
      // Whatever is still running after the grace period is handed back: its
      // queue lock expires and another process picks the job up.
      setTimeout(() => {
        logger.warn('grace period over: exiting with work in flight');
        process.exit(0);
      }, grace).unref();
    });
  }
  // After an error nobody handled, the process's state is unknown: log it and
  // exit, as Node would, for the supervisor to restart a clean one (0101).
  const crash = (kind: string) => (reason: unknown) => {
    logger.fatal({ err: reason }, `${kind}: exiting`);
    process.exit(1);
  };
  process.on('unhandledRejection', crash('unhandled rejection'));
  process.on('uncaughtException', crash('uncaught exception'));

  const { PORT } = app.get(HttpConfig);
  await app.listen(PORT, app.get(ListenConfig).HOST);
  logger.log(`${options.service} listening on port ${PORT}`);
  return app;
}

/**
 * The Fastify options every app's server gets: X-Forwarded-* believed only
 * from the proxies TRUST_PROXY names (off by default, decision 0128), 503
 * while closing, and request ids from `x-request-id`. Throws ConfigError on a
 * bad TRUST_PROXY. The gateway's tests build their server with it too.
 */
export function serviceFastifyOptions(env: NodeJS.ProcessEnv): FastifyServerOptions {
  const { trustProxy } = loadConfig(ProxyConfig, env);
  return {
    // Fastify 5.12 believes no hop count (it cannot tell a proxy from a client that
    // connects directly); TRUST_PROXY=N keeps its meaning: the N hops nearest the server.
    trustProxy:
      typeof trustProxy === 'number'
        ? (_address: string, hop: number) => hop < trustProxy
        : trustProxy,
    return503OnClosing: true,
    genReqId: requestId,
  };
}

export { ConfigError };
