import { createGenhubClient, type GenhubClient } from '@genhub/contracts';
import { useState, type FormEvent, type ReactNode } from 'react';
import { toApiError } from '../common/api-error.util';
import { type Credential, storeCredential } from './session.util';

interface Props {
  baseUrl: string;
  credential: Credential;
  title: string;
  /** The field's label: "API key", "Admin token". */
  label: string;
  notice?: string;
  /** One cheap call the credential must pass before the pages open; throws what to show. */
  verify(client: GenhubClient): Promise<void>;
  onSignedIn(client: GenhubClient): void;
  /** A link to the other sign-in. */
  children?: ReactNode;
}

/** A credential, checked against the API before the pages open, kept as the user chose. */
export function SignIn(props: Props) {
  const { baseUrl, credential, title, label, notice, verify, onSignedIn, children } = props;
  const [secret, setSecret] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState(notice);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const client = createGenhubClient({ baseUrl, apiKey: secret.trim() });
    try {
      await verify(client);
      storeCredential(credential, secret.trim(), remember);
      onSignedIn(client);
    } catch (e) {
      setError(toApiError(e).message);
    } finally {
      setBusy(false);
    }
  }

  const id = `sign-in-${credential}`;
  return (
    <main className="sign-in">
      <h1>{title}</h1>
      <form onSubmit={submit} aria-describedby={error ? `${id}-error` : undefined}>
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          type="password"
          autoComplete="off"
          required
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
        />
        <label className="inline">
          <input
            type="checkbox"
            checked={remember}
            onChange={(e) => setRemember(e.target.checked)}
          />
          Remember on this device
        </label>
        <button type="submit" disabled={busy || !secret.trim()}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error && (
          <p id={`${id}-error`} role="alert" className="error">
            {error}
          </p>
        )}
      </form>
      {children}
    </main>
  );
}
