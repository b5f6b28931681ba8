export * from './webhook-attempt.row';
export * from './webhook-delivery.row';
