import type { IncomingMessage } from 'node:http';
import { loadConfig, TracingConfig } from '@genhub/config';

/** Probes and scrapes would drown the traces. */
const UNTRACED_PATHS = /^\/(health|ready|metrics)(\?|$)/;

export interface Tracing {
  /** Exports what is buffered; called on shutdown. */
  flush(): Promise<void>;
}

/**
 * Turns OpenTelemetry tracing on when OTEL_ENABLED=true: incoming and outgoing
 * HTTP, PostgreSQL and Redis spans, batched to OTEL_EXPORTER_OTLP_ENDPOINT
 * over OTLP/HTTP (JSON). Must run before http, pg and ioredis are first
 * required, so each app's main.ts imports its `tracing.ts` first. When off,
 * nothing is loaded and nothing is patched. Database and Redis calls are
 * traced only inside a parent span (a request), not BullMQ's own polling.
 */
export function startTracing(service: string, env: NodeJS.ProcessEnv): Tracing | undefined {
  const config = loadConfig(TracingConfig, env);
  if (!config.OTEL_ENABLED) return undefined;

  const { NodeTracerProvider } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } =
    require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { ATTR_SERVICE_NAME } =
    require('@opentelemetry/semantic-conventions') as typeof import('@opentelemetry/semantic-conventions');
  const { registerInstrumentations } =
    require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');

  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.OTEL_SERVICE_NAME ?? service }),
    // Batch size and delay follow the standard OTEL_BSP_* variables.
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` })),
    ],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req: IncomingMessage) => UNTRACED_PATHS.test(req.url ?? ''),
      }),
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  const tracing: Tracing = { flush: () => provider.forceFlush() };
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(signal, () => void tracing.flush().catch(() => undefined));
  return tracing;
}
