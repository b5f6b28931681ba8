import { Injectable, Logger } from '@nestjs/common';
import { PubSubChannel, PubSubService } from '@genhub/queue';

/**
 * Wakes the webhook dispatchers' claim loops after a terminal statement opened
 * a delivery (decision 0141): at most one notice per turn of the event loop,
 * however many deliveries that turn opened. A lost notice (Redis down) costs
 * latency, never a delivery: the dispatchers also look for due deliveries
 * every second.
 */
@Injectable()
export class WebhookWake {
  private readonly logger = new Logger(WebhookWake.name);
  private pending = false;

  constructor(private readonly pubsub: PubSubService) {}

  wake(): void {
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      this.pubsub
        .publish(PubSubChannel.WebhooksDue, '')
        .catch((e: Error) => this.logger.debug(`webhooks-due notice: ${e.message}`));
    });
  }
}
