/**
 * Where the dispatcher gets an account's signing key (`whsec_` + base64).
 * The accounts domain owns the secret; the dispatcher app binds this port to
 * the accounts data-access repository. Undefined: the account has none (or is gone).
 */
export abstract class WebhookSecretSource {
  abstract secretFor(accountId: string): Promise<string | undefined>;
}
