import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived, URL-safe tokens signed with the deployment's secret
 * (`API_KEY_PEPPER`): the claims as base64url JSON, a dot, their HMAC. Each
 * purpose signs with a key of its own derived from the secret, so a token made
 * for one purpose is never accepted for another, and never equals a key hash.
 * The claims are readable by whoever holds the token: never put a secret in them.
 */
export function signToken(claims: object, secret: string, purpose: string): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${mac(payload, secret, purpose).toString('base64url')}`;
}

/**
 * The claims of a token signed by `signToken` with the same secret and
 * purpose, or undefined when the signature is wrong or the token malformed.
 * The caller still checks the claims' shape and time.
 */
export function readToken(token: string, secret: string, purpose: string): unknown {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = mac(payload, secret, purpose);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function mac(payload: string, secret: string, purpose: string): Buffer {
  const key = createHmac('sha256', secret).update(`genhub ${purpose}`).digest();
  return createHmac('sha256', key).update(payload).digest();
}
