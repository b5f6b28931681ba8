import { createHmac, randomBytes, randomInt } from 'node:crypto';

/** `gh_` + 32 random bytes in base64url (43 characters). */
export const API_KEY_PATTERN = /^gh_[A-Za-z0-9_-]{43}$/;
const PREFIX_LENGTH = 11; // `gh_` + 8

export function generateApiKey(): string {
  return `gh_${randomBytes(32).toString('base64url')}`;
}

/** Whether a string could be one of our keys at all (saves a look-up for garbage). */
export function looksLikeApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** The keyed hash stored in place of the key; the pepper never leaves configuration. */
export function hashApiKey(pepper: string, plainKey: string): string {
  return createHmac('sha256', pepper).update(plainKey).digest('hex');
}

/** What logs and lists may show of a key. */
export function apiKeyPrefix(plainKey: string): string {
  return plainKey.slice(0, PREFIX_LENGTH);
}

/** A Standard Webhooks secret: `whsec_` + base64 of 24 to 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(randomInt(24, 33)).toString('base64')}`;
}
