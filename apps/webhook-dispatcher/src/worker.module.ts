import { DynamicModule, Module } from '@nestjs/common';
import { AccountsDataAccessModule } from '@genhub/accounts-data-access';
import { ServiceModule } from '@genhub/service';
import { WebhookDispatchModule, WebhookSecretSource } from '@genhub/webhooks-feature';
import { AccountsWebhookSecretSource } from './deliver-webhook/accounts-webhook-secret.adapter';
import { DeliverWebhookProcessor } from './deliver-webhook/deliver-webhook.processor';
import { DueWebhooksPump } from './deliver-due/due-webhooks.pump';
import { WebhookAttemptMetrics } from './webhook-attempt.metrics';

/**
 * Delivers signed webhooks: tasks' ends claimed from the deliveries table
 * (decision 0141), `start` events and replays from the webhooks queue. Serves
 * only /health, /ready and /metrics.
 */
@Module({})
export class WorkerModule {
  static forRoot(env: NodeJS.ProcessEnv): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ServiceModule.forRoot('webhook-dispatcher', env),
        WebhookDispatchModule.register({
          imports: [AccountsDataAccessModule],
          secretSource: { provide: WebhookSecretSource, useClass: AccountsWebhookSecretSource },
        }),
      ],
      providers: [WebhookAttemptMetrics, DeliverWebhookProcessor, DueWebhooksPump],
    };
  }
}
