import { createGenhubClient, type GenhubClient } from '@genhub/contracts';
import { useState } from 'react';
import { Playground } from './playground/playground';
import { forgetApiKey, storedApiKey } from './session/session.util';
import { SignIn } from './session/sign-in';

/** The console: sign-in, then the playground (history, usage, chat and the operator's pages follow). */
export function App({ baseUrl }: { baseUrl: string }) {
  const [client, setClient] = useState<GenhubClient | undefined>(() => {
    const apiKey = storedApiKey();
    return apiKey ? createGenhubClient({ baseUrl, apiKey }) : undefined;
  });
  const [notice, setNotice] = useState<string>();

  const signOut = (message?: string) => {
    forgetApiKey();
    setClient(undefined);
    setNotice(message);
  };

  if (!client) return <SignIn baseUrl={baseUrl} notice={notice} onSignedIn={setClient} />;
  return (
    <>
      <header className="top">
        <strong>genhub console</strong>
        <nav aria-label="Main">
          <a href="#playground" aria-current="page">
            Playground
          </a>
        </nav>
        <button onClick={() => signOut()}>Sign out</button>
      </header>
      <main id="playground">
        <Playground client={client} onSignedOut={(message) => signOut(message)} />
      </main>
    </>
  );
}
