import { Injectable } from '@nestjs/common';
import { readToken, PepperConfig, signToken } from '@genhub/config';
import { AppException } from '@genhub/errors';

/** How long an event-stream token opens its stream (an open stream lasts until the task ends). */
export const EVENTS_TOKEN_TTL_SECONDS = 5 * 60;

const PURPOSE = 'task event streams';

interface Claims {
  /** account id */
  a: string;
  /** id of the API key the token was issued to: revoking it refuses the token */
  k: string;
  /** task id */
  t: string;
  /** expiry, unix seconds */
  e: number;
}

/** Who a valid token lets in: the account, through the key it was issued to. */
export interface EventsTokenHolder {
  accountId: string;
  apiKeyId: string;
}

/**
 * Tokens for `EventSource`, which cannot send an Authorization header: one
 * task, one account, a few minutes, signed with the deployment secret (never
 * the API key in a URL). The signature and time are checked here, without a
 * database read; the key it names is checked by the caller as any key is
 * (revoked or suspended: refused, decision 0129).
 */
@Injectable()
export class EventsTokens {
  constructor(private readonly security: PepperConfig) {}

  issue(
    holder: EventsTokenHolder,
    taskId: string,
    now = Date.now(),
  ): { token: string; expiresAt: Date } {
    const expires = Math.floor(now / 1000) + EVENTS_TOKEN_TTL_SECONDS;
    const claims: Claims = {
      a: holder.accountId,
      k: holder.apiKeyId,
      t: taskId.toLowerCase(),
      e: expires,
    };
    return {
      token: signToken(claims, this.security.API_KEY_PEPPER, PURPOSE),
      expiresAt: new Date(expires * 1000),
    };
  }

  /**
   * Who a token opens `taskId`'s stream for; throws stream_token_refused when
   * it is forged, expired, for another task, or names no key (issued before keys were named).
   */
  holderOf(token: string, taskId: string, now = Date.now()): EventsTokenHolder {
    const claims = readToken(token, this.security.API_KEY_PEPPER, PURPOSE) as
      Partial<Claims> | undefined;
    const valid =
      typeof claims?.a === 'string' &&
      typeof claims.k === 'string' &&
      claims.t === taskId.toLowerCase() &&
      Number.isInteger(claims.e) &&
      (claims.e as number) * 1000 > now;
    if (!valid) throw new AppException('stream_token_refused');
    return { accountId: claims.a as string, apiKeyId: claims.k as string };
  }
}
