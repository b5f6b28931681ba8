export * from './bootstrap/bootstrap-service';
export * from './health/readiness.registry';
export * from './metrics/metrics.service';
export * from './metrics/route-family.util';
export * from './observability.module';
export { requestId } from './logging/logger.options';
