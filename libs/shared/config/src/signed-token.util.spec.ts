import { readToken, signToken } from './signed-token.util';

const secret = 'a-deployment-secret-0123456789';

describe('signed tokens', () => {
  it('gives back the claims of a token signed with the same secret and purpose', () => {
    const token = signToken({ task: 't1', exp: 42 }, secret, 'task events');
    expect(token).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(readToken(token, secret, 'task events')).toEqual({ task: 't1', exp: 42 });
  });

  it('refuses another secret, another purpose, changed claims and malformed tokens', () => {
    const token = signToken({ task: 't1' }, secret, 'task events');
    expect(readToken(token, `${secret}!`, 'task events')).toBeUndefined();
    expect(readToken(token, secret, 'upload tickets')).toBeUndefined();
    const [, signature] = token.split('.');
    const forged = `${Buffer.from('{"task":"t2"}').toString('base64url')}.${signature}`;
    expect(readToken(forged, secret, 'task events')).toBeUndefined();
    for (const bad of ['', '.', 'abc', `${token}.x`, `${token.split('.')[0]}.`])
      expect(readToken(bad, secret, 'task events')).toBeUndefined();
  });
});
