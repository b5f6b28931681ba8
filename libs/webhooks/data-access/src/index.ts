export * from './rows';
export * from './migrations';
export * from './repositories/webhook-delivery.repository';
export * from './webhooks-data-access.module';
export * from './statements/delivery.statements';
