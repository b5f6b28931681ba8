import { Webhook } from 'standardwebhooks';

export const WEBHOOK_USER_AGENT = 'genhub-webhooks/1.0';

/**
 * Standard Webhooks headers (docs/interface.md, "Webhook signing"): the id is the task
 * id (the same on every attempt), the timestamp is the attempt's, the signature is
 * `v1,<base64 HMAC-SHA256>` over `<id>.<timestamp>.<body>` with the account's
 * `whsec_` secret.
 */
export function signedHeaders(
  secret: string,
  webhookId: string,
  at: Date,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(webhookId, at, body),
  };
}
