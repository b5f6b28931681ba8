import { SecurityConfig, signToken } from '@genhub/config';
import { AppException } from '@genhub/errors';
import { EVENTS_TOKEN_TTL_SECONDS, EventsTokens } from './events-token.service';

const security = Object.assign(new SecurityConfig(), { API_KEY_PEPPER: 'events-token-pepper' });
const TASK = '0F8FAD5B-D9CB-469F-A165-70867728950E';
const holder = { accountId: 'account-1', apiKeyId: 'key-1' };

const refusal = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    return (error as AppException).code;
  }
  return 'accepted';
};

describe('EventsTokens', () => {
  const tokens = new EventsTokens(security);

  it('names the account and the key it was issued to, for one task, five minutes', () => {
    const now = Date.now();
    const { token, expiresAt } = tokens.issue(holder, TASK, now);
    expect(expiresAt.getTime()).toBe((Math.floor(now / 1000) + EVENTS_TOKEN_TTL_SECONDS) * 1000);
    expect(tokens.holderOf(token, TASK.toLowerCase(), now)).toEqual(holder);
    expect(refusal(() => tokens.holderOf(token, 'another-task', now))).toBe('stream_token_refused');
    expect(refusal(() => tokens.holderOf(token, TASK, expiresAt.getTime()))).toBe(
      'stream_token_refused',
    );
    expect(
      refusal(() =>
        new EventsTokens(
          Object.assign(new SecurityConfig(), { API_KEY_PEPPER: 'another-pepper-0123' }),
        ).holderOf(token, TASK, now),
      ),
    ).toBe('stream_token_refused');
  });

  it('refuses a token that names no key (issued before tokens named their key)', () => {
    const e = Math.floor(Date.now() / 1000) + 60;
    const old = signToken(
      { a: 'account-1', t: TASK.toLowerCase(), e },
      security.API_KEY_PEPPER,
      'task event streams',
    );
    expect(refusal(() => tokens.holderOf(old, TASK))).toBe('stream_token_refused');
  });
});
