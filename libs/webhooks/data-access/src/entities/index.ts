export * from './webhook-attempt.entity';
export * from './webhook-delivery.entity';
