import { Injectable } from '@nestjs/common';
import { readToken, PepperConfig, signToken } from '@genhub/config';
import { AppException } from '@genhub/errors';

/** How long an event-stream token opens its stream (an open stream lasts until the task ends). */
export const EVENTS_TOKEN_TTL_SECONDS = 5 * 60;

const PURPOSE = 'task event streams';

interface Claims {
  /** account id */
  a: string;
  /** task id */
  t: string;
  /** expiry, unix seconds */
  e: number;
}

/**
 * Tokens for `EventSource`, which cannot send an Authorization header: one
 * task, one account, a few minutes, signed with the deployment secret (never
 * the API key in a URL). Verified without a database read.
 */
@Injectable()
export class EventsTokens {
  constructor(private readonly security: PepperConfig) {}

  issue(accountId: string, taskId: string, now = Date.now()): { token: string; expiresAt: Date } {
    const expires = Math.floor(now / 1000) + EVENTS_TOKEN_TTL_SECONDS;
    const claims: Claims = { a: accountId, t: taskId.toLowerCase(), e: expires };
    return {
      token: signToken(claims, this.security.API_KEY_PEPPER, PURPOSE),
      expiresAt: new Date(expires * 1000),
    };
  }

  /** The account a token opens `taskId`'s stream for; throws stream_token_refused otherwise. */
  accountFor(token: string, taskId: string, now = Date.now()): string {
    const claims = readToken(token, this.security.API_KEY_PEPPER, PURPOSE) as
      Partial<Claims> | undefined;
    const valid =
      typeof claims?.a === 'string' &&
      claims.t === taskId.toLowerCase() &&
      Number.isInteger(claims.e) &&
      (claims.e as number) * 1000 > now;
    if (!valid) throw new AppException('stream_token_refused');
    return claims.a as string;
  }
}
