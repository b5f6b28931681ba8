import { performance } from 'node:perf_hooks';
import { Injectable } from '@nestjs/common';
import type { DeliveryEvent } from '@genhub/webhooks-data-access';
import { WebhookSecretSource } from '../ports/webhook-secret.port';
import { HostLimiter } from './host-limiter.service';
import { HttpAttemptResult, WebhookHttpClient } from './webhook-http.client';
import { signedHeaders } from './webhook-signing.util';

/** The delivery an attempt sends: where, for whom, and the exact bytes. */
export interface OutgoingWebhook {
  taskId: string;
  /** Undefined or `completed`: the task's end. */
  event?: DeliveryEvent;
  accountId: string;
  url: string;
  body: string;
}

export type SendResult =
  /** The receiver's host has no free slot and is not turning any over: try again later. */
  | { kind: 'saturated' }
  | { kind: 'sent'; startedAt: Date; durationMs: number; result: HttpAttemptResult };

/**
 * One attempt's HTTP side, the same for a queue job and a claimed delivery:
 * the account's secret, a slot of the receiver's host (held for the HTTP call
 * only: recording the attempt is the database's business, not the
 * receiver's, and holding the slot through a commit capped a healthy receiver
 * at a few hundred a second), the signed POST.
 */
@Injectable()
export class WebhookSender {
  constructor(
    private readonly secrets: WebhookSecretSource,
    private readonly http: WebhookHttpClient,
    private readonly hosts: HostLimiter,
  ) {}

  async send(webhook: OutgoingWebhook): Promise<SendResult> {
    const secret = await this.secrets.secretFor(webhook.accountId);
    const release = await this.hosts.acquire(hostOf(webhook.url));
    if (!release) return { kind: 'saturated' };
    const startedAt = new Date();
    const t0 = performance.now();
    let result: HttpAttemptResult;
    try {
      result = secret
        ? await this.http.post(
            webhook.url,
            signedHeaders(secret, messageIdOf(webhook), startedAt, webhook.body),
            webhook.body,
          )
        : { ok: false, statusCode: null, error: 'the account has no webhook secret' };
    } finally {
      release();
    }
    return { kind: 'sent', startedAt, durationMs: Math.round(performance.now() - t0), result };
  }
}

/**
 * The Standard Webhooks message id: the task's id for its end (what receivers
 * and the fault audit key on), its own for a `start` event, so a receiver that
 * dedupes by id keeps both.
 */
function messageIdOf(webhook: Pick<OutgoingWebhook, 'taskId' | 'event'>): string {
  return webhook.event && webhook.event !== 'completed'
    ? `${webhook.event}-${webhook.taskId}`
    : webhook.taskId;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
