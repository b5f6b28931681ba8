import { Injectable, Logger } from '@nestjs/common';
import { PubSubChannel, PubSubService } from '@genhub/queue';
import { AUTH_CACHE_TTL_MS } from './auth-cache.service';

/** How often a failed auth-change notice is published again. */
export const AUTH_REPUBLISH_MS = 1_000;

/**
 * Announces that an account's keys or status changed, so every gateway drops
 * its cached look-ups for it (PubSubChannel.AuthChanged, message: account id).
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

  /**
   * Tells this replica at once and the others through Redis. A failed publish
   * is tried again in the background every AUTH_REPUBLISH_MS for as long as a
   * cached look-up can live (after that no cache holds what the notice would
   * drop); the database change is done either way.
   */
  async accountChanged(accountId: string): Promise<void> {
    for (const listener of this.listeners) listener(accountId);
    if (!(await this.publish(accountId))) this.republish(accountId, Date.now() + AUTH_CACHE_TTL_MS);
  }

  private async publish(accountId: string): Promise<boolean> {
    try {
      await this.pubsub.publish(PubSubChannel.AuthChanged, accountId);
      return true;
    } catch (error) {
      this.logger.error(
        `could not publish auth change for ${accountId} (trying again): ${(error as Error).message}`,
      );
      return false;
    }
  }

  private republish(accountId: string, until: number): void {
    if (Date.now() >= until) return;
    setTimeout(() => {
      void this.publish(accountId).then((sent) => sent || this.republish(accountId, until));
    }, AUTH_REPUBLISH_MS).unref();
  }
}
