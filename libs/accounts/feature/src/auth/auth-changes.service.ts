import { Injectable, Logger } from '@nestjs/common';
import { Channel, PubSubService } from '@genhub/queue';

/**
 * Announces that an account's keys or status changed, so every gateway drops
 * its cached look-ups for it (Channel.AuthChanged, message: account id).
 */
@Injectable()
export class AuthChangesPublisher {
  private readonly logger = new Logger(AuthChangesPublisher.name);
  private readonly listeners = new Set<(accountId: string) => void>();

  constructor(private readonly pubsub: PubSubService) {}

  /** In-process listeners (this replica's cache) hear it at once, before Redis relays it. */
  onChange(listener: (accountId: string) => void): void {
    this.listeners.add(listener);
  }

  async accountChanged(accountId: string): Promise<void> {
    for (const listener of this.listeners) listener(accountId);
    try {
      await this.pubsub.publish(Channel.AuthChanged, accountId);
    } catch (error) {
      // The database change is done; other replicas catch up within the cache TTL.
      this.logger.error(
        `could not publish auth change for ${accountId}: ${(error as Error).message}`,
      );
    }
  }
}
