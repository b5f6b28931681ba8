import { createGenhubClient, type GenhubClient } from '@genhub/contracts';
import { useState, type FormEvent } from 'react';
import { apiError, networkError } from '../shared/api-error.util';
import { storeApiKey } from './session.util';

interface Props {
  baseUrl: string;
  notice?: string;
  onSignedIn(client: GenhubClient): void;
}

/** The API key, checked against `GET /v1/balance` before the console opens. */
export function SignIn({ baseUrl, notice, onSignedIn }: Props) {
  const [apiKey, setApiKey] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState(notice);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const client = createGenhubClient({ baseUrl, apiKey: apiKey.trim() });
    try {
      const { error: refused, response } = await client.GET('/v1/balance');
      if (refused !== undefined) throw apiError(response.status, refused);
      storeApiKey(apiKey.trim(), remember);
      onSignedIn(client);
    } catch (e) {
      setError((e instanceof TypeError ? networkError() : (e as Error)).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="sign-in">
      <h1>genhub console</h1>
      <form onSubmit={submit} aria-describedby={error ? 'sign-in-error' : undefined}>
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          required
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
        />
        <label className="inline">
          <input
            type="checkbox"
            checked={remember}
            onChange={(e) => setRemember(e.target.checked)}
          />
          Remember on this device
        </label>
        <button type="submit" disabled={busy || !apiKey.trim()}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error && (
          <p id="sign-in-error" role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
