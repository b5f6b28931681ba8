import {
  DynamicModule,
  Inject,
  Module,
  ModuleMetadata,
  OnApplicationShutdown,
  Provider,
} from '@nestjs/common';
import { SecurityConfig, trustedCas, WebhookConfig } from '@genhub/config';
import { WebhooksDataAccessModule } from '@genhub/webhooks-data-access';
import { HostLimiter, hostWaitFor } from './dispatch/host-limiter.service';
import { WebhookHttpClient } from './dispatch/webhook-http.client';
import { WebhookSecretSource } from './ports/webhook-secret.port';
import { WebhookSender } from './dispatch/webhook-sender.service';
import { DeliverDueWebhooksUseCase } from './use-cases/deliver-due/deliver-due-webhooks.use-case';
import { DeliverWebhookUseCase } from './use-cases/deliver-webhook/deliver-webhook.use-case';
import { GetWebhookDeliveriesUseCase } from './use-cases/get-webhook-deliveries/get-webhook-deliveries.use-case';

/** For the gateway: the delivery log read. */
@Module({
  imports: [WebhooksDataAccessModule],
  providers: [GetWebhookDeliveriesUseCase],
  exports: [GetWebhookDeliveriesUseCase],
})
export class WebhookDeliveryLogModule {}

export interface WebhookDispatchOptions {
  /** Modules the secret source needs (e.g. the accounts data-access module). */
  imports?: ModuleMetadata['imports'];
  /** Binds WebhookSecretSource, e.g. `{ provide: WebhookSecretSource, useExisting: … }`. */
  secretSource: Provider;
}

/**
 * For the dispatcher: the delivery use-cases (queue jobs, claimed deliveries), their HTTP client (private-network
 * guard, time limit, no redirects) and the per-host limiter. Needs
 * WebhookConfig, SecurityConfig and the webhooks queue (QueueModule).
 */
@Module({})
export class WebhookDispatchModule implements OnApplicationShutdown {
  constructor(@Inject(WebhookHttpClient) private readonly http: WebhookHttpClient) {}

  static register(options: WebhookDispatchOptions): DynamicModule {
    return {
      module: WebhookDispatchModule,
      imports: [WebhooksDataAccessModule, ...(options.imports ?? [])],
      providers: [
        options.secretSource,
        {
          provide: WebhookHttpClient,
          inject: [WebhookConfig, SecurityConfig],
          useFactory: (webhooks: WebhookConfig, security: SecurityConfig) =>
            new WebhookHttpClient({
              timeoutMs: webhooks.WEBHOOK_TIMEOUT_MS,
              allowPrivateNetwork: security.ALLOW_PRIVATE_NETWORK_URLS,
              connectionsPerHost: webhooks.WEBHOOK_PER_HOST_CONCURRENCY,
              trustedCas: trustedCas(security.OUTBOUND_TLS_CA),
            }),
        },
        {
          provide: HostLimiter,
          inject: [WebhookConfig],
          useFactory: (webhooks: WebhookConfig) =>
            new HostLimiter(
              webhooks.WEBHOOK_PER_HOST_CONCURRENCY,
              hostWaitFor(webhooks.WEBHOOK_CONCURRENCY, webhooks.WEBHOOK_PER_HOST_CONCURRENCY),
            ),
        },
        WebhookSender,
        DeliverWebhookUseCase,
        DeliverDueWebhooksUseCase,
      ],
      exports: [DeliverWebhookUseCase, DeliverDueWebhooksUseCase, WebhookSecretSource, HostLimiter],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.http.close();
  }
}
