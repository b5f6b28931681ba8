/**
 * Where the API is: `config.json` beside the page (`{"apiBaseUrl": "https://api.example.com"}`)
 * when the console is hosted on its own, else the origin that served it (the
 * gateway's `/console`). Read at run time, so one build serves every deployment.
 */
export async function apiBaseUrl(): Promise<string> {
  try {
    const response = await fetch('config.json', { cache: 'no-store' });
    if (response.ok) {
      const config = (await response.json()) as { apiBaseUrl?: unknown };
      if (typeof config.apiBaseUrl === 'string' && config.apiBaseUrl) return config.apiBaseUrl;
    }
  } catch {
    // No config file: same origin.
  }
  return window.location.origin;
}
