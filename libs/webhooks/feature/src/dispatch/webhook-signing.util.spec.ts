import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signedHeaders, WEBHOOK_USER_AGENT } from './webhook-signing.util';

describe('signedHeaders', () => {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const body = JSON.stringify({ id: 'a1', status: 'completed', input: { prompt: 'é ✓' } });

  it('produces Standard Webhooks headers that the standardwebhooks package verifies', () => {
    const at = new Date();
    const headers = signedHeaders(secret, 'a1', at, body);
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'webhook-id': 'a1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    });
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('does not verify with another secret or a changed body', () => {
    const headers = signedHeaders(secret, 'a1', new Date(), body);
    const other = new Webhook(`whsec_${randomBytes(24).toString('base64')}`);
    expect(() => other.verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body.replace('a1', 'a2'), headers)).toThrow();
  });
});
