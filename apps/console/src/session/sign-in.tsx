import { createGenhubClient, type GenhubClient } from '@genhub/contracts';
import { useMutation } from '@tanstack/react-query';
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
  const check = useMutation({
    mutationFn: async (key: string) => {
      const client = createGenhubClient({ baseUrl, apiKey: key });
      await verify(client);
      return client;
    },
    onSuccess: (client, key) => {
      storeCredential(credential, key, remember);
      onSignedIn(client);
    },
  });
  // Before any attempt: why the last session ended, if it was the server's doing.
  const error = check.error ? toApiError(check.error).message : check.isIdle ? notice : undefined;
  const busy = check.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    check.mutate(secret.trim());
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
