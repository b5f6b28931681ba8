import type { OperationObject } from '@nestjs/swagger';
import { json, ref } from './error-responses.constants';

/**
 * The webhook a submit with `?webhook=` leads to, as an OpenAPI callback of the
 * submit operation: Standard Webhooks signing, 3 attempts
 * (docs/interface.md, "Webhook signing" and "Retry policy").
 */
export function taskFinishedCallback(
  submitOperationId: string,
): NonNullable<OperationObject['callbacks']> {
  return {
    taskFinished: {
      '{$request.query.webhook}': {
        post: {
          operationId: `${submitOperationId}Webhook`,
          summary: 'Webhook delivery when the task is terminal',
          description:
            "Signed in the Standard Webhooks form with the account's `webhook_secret`. A 2xx within 30 seconds is success; otherwise retried after 2 s and 4 s (3 attempts). Deduplicate on `webhook-id`.",
          security: [],
          parameters: [
            {
              name: 'webhook-id',
              in: 'header',
              required: true,
              description: 'The task id; the same on every retry.',
              schema: { type: 'string' },
            },
            {
              name: 'webhook-timestamp',
              in: 'header',
              required: true,
              description: 'Unix seconds of this attempt.',
              schema: { type: 'string', pattern: '^[0-9]+$' },
            },
            {
              name: 'webhook-signature',
              in: 'header',
              required: true,
              description:
                '`v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<raw body>`.',
              schema: { type: 'string', pattern: '^v1,' },
            },
          ],
          requestBody: { required: true, content: json(ref('WebhookPayload')) },
          responses: {
            '2XX': { description: 'Delivered.' },
            '4XX': { description: 'The attempt failed; it is retried (3 attempts in all).' },
            '5XX': { description: 'The attempt failed; it is retried (3 attempts in all).' },
          },
        },
      },
    },
  };
}
