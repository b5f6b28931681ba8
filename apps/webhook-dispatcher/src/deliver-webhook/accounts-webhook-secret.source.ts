import { Injectable } from '@nestjs/common';
import { AccountRepository } from '@genhub/accounts-data-access';
import { WebhookSecretSource } from '@genhub/webhooks-feature';

/** How long a looked-up secret is reused (secrets are set at account creation and not rotated). */
const SECRET_TTL_MS = 60_000;

/**
 * The webhooks port bound to the accounts domain's repository (the account's
 * `webhook_secret`), with a short in-process cache so a burst of deliveries
 * for one account costs one query.
 */
@Injectable()
export class AccountsWebhookSecretSource extends WebhookSecretSource {
  private readonly cache = new Map<string, { secret: string; until: number }>();
  /** Look-ups under way, shared by the deliveries of one account that start together. */
  private readonly pending = new Map<string, Promise<string | undefined>>();

  constructor(private readonly accounts: AccountRepository) {
    super();
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
