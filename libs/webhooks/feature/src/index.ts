export * from './dispatch/host-limiter';
export * from './dispatch/retry-policy';
export * from './dispatch/webhook-http.client';
export * from './dispatch/webhook-signing';
export * from './ports/webhook-secret.source';
export * from './use-cases/deliver-webhook/deliver-webhook.use-case';
export * from './use-cases/get-webhook-deliveries/get-webhook-deliveries.use-case';
export * from './webhooks-feature.module';
