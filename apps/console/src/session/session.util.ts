/**
 * Where the API key waits between page loads: the browser session only
 * (sessionStorage, gone when the tab closes) unless the user asks to be
 * remembered on this device (localStorage).
 */
const KEY = 'genhub.apiKey';

export function storedApiKey(): string | undefined {
  return sessionStorage.getItem(KEY) ?? localStorage.getItem(KEY) ?? undefined;
}

export function storeApiKey(apiKey: string, remember: boolean): void {
  forgetApiKey();
  (remember ? localStorage : sessionStorage).setItem(KEY, apiKey);
}

export function forgetApiKey(): void {
  sessionStorage.removeItem(KEY);
  localStorage.removeItem(KEY);
}
