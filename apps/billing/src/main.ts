import './tracing';
import 'reflect-metadata';
import { bootstrapService } from '@genhub/observability';
import { BillingModule } from './billing.module';

void bootstrapService({
  service: 'billing',
  module: (env) => BillingModule.forRoot(env),
  env: process.env,
});
