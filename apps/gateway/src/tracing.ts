// Imported first by main.ts: OpenTelemetry must patch http, pg and ioredis before they load.
import 'reflect-metadata';
import { startTracing } from '@genhub/tracing';

startTracing('gateway', process.env);
