/**
 * Where a credential waits between page loads: the browser session only
 * (sessionStorage, gone when the tab closes) unless the user asks to be
 * remembered on this device (localStorage). The API key and the operator's
 * admin token are kept apart, under the same rules.
 */
export type Credential = 'apiKey' | 'adminToken';

const STORAGE_KEYS: Record<Credential, string> = {
  apiKey: 'genhub.apiKey',
  adminToken: 'genhub.adminToken',
};

export function storedCredential(kind: Credential): string | undefined {
  const key = STORAGE_KEYS[kind];
  return sessionStorage.getItem(key) ?? localStorage.getItem(key) ?? undefined;
}

export function storeCredential(kind: Credential, value: string, remember: boolean): void {
  forgetCredential(kind);
  (remember ? localStorage : sessionStorage).setItem(STORAGE_KEYS[kind], value);
}

export function forgetCredential(kind: Credential): void {
  sessionStorage.removeItem(STORAGE_KEYS[kind]);
  localStorage.removeItem(STORAGE_KEYS[kind]);
}
