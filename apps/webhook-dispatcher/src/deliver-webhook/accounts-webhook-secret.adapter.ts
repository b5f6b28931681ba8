import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { AccountRepository } from '@genhub/accounts-data-access';
import { PubSubChannel, PubSubService } from '@genhub/queue';
import { WebhookSecretSource } from '@genhub/webhooks-feature';

/** How long a looked-up secret is reused; a rotation announced on auth-changed drops it at once. */
const SECRET_TTL_MS = 60_000;

/**
 * The webhooks port bound to the accounts domain's repository (the account's
 * `webhook_secret`), with a short in-process cache so a burst of deliveries
 * for one account costs one query. A rotated secret (`webhook-secret:rotate`)
 * is announced on the auth-changed channel and dropped from the cache, so the
 * old one stops signing within a second (docs/decisions/0066).
 */
@Injectable()
export class AccountsWebhookSecretSource extends WebhookSecretSource implements OnModuleInit {
  private readonly cache = new Map<string, { secret: string; until: number }>();
  /** Look-ups under way, shared by the deliveries of one account that start together. */
  private readonly pending = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly accounts: AccountRepository,
    private readonly pubsub: PubSubService,
  ) {
    super();
  }

  onModuleInit(): void {
    // Not awaited: with Redis down at boot the cache TTL still bounds a stale secret.
    this.pubsub
      .subscribe(PubSubChannel.AuthChanged, (accountId) => this.cache.delete(accountId))
      .catch((error: Error) =>
        new Logger(AccountsWebhookSecretSource.name).warn(
          `no secret-rotation notices: ${error.message}`,
        ),
      );
  }

  async secretFor(accountId: string): Promise<string | undefined> {
    const hit = this.cache.get(accountId);
    if (hit && hit.until > Date.now()) return hit.secret;
    let lookup = this.pending.get(accountId);
    if (!lookup) {
      lookup = this.accounts
        .findWebhookSecret(accountId)
        .finally(() => this.pending.delete(accountId));
      this.pending.set(accountId, lookup);
    }
    const secret = await lookup;
    if (secret) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(accountId, { secret, until: Date.now() + SECRET_TTL_MS });
    }
    return secret;
  }
}
