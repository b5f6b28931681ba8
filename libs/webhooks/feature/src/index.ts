export * from './dispatch/host-limiter.service';
export * from './dispatch/retry-policy.util';
export * from './dispatch/webhook-http.client';
export * from './dispatch/webhook-signing.util';
export * from './ports/webhook-secret.port';
export * from './use-cases/deliver-webhook/deliver-webhook.use-case';
export * from './use-cases/get-webhook-deliveries/get-webhook-deliveries.use-case';
export * from './webhooks-feature.module';
