import { createGenhubClient, type GenhubClient } from '@genhub/contracts';
import { lazy, Suspense, useCallback, useState } from 'react';
import { Chat } from './chat/chat';
import { History } from './history/history';
import { Playground } from './playground/playground';
import { forgetApiKey, storedApiKey } from './session/session.util';
import { SignIn } from './session/sign-in';
import { useHashRoute } from './shared/use-hash-route.util';

// The chart library loads with its page, not with the first one.
const Usage = lazy(() => import('./usage/usage'));

const PAGES = ['playground', 'history', 'usage', 'chat'] as const;
const TITLES: Record<(typeof PAGES)[number], string> = {
  playground: 'Playground',
  history: 'History',
  usage: 'Usage',
  chat: 'Chat',
};

/** The console: sign-in, then the playground, the history and usage (chat and the operator's pages follow). */
export function App({ baseUrl }: { baseUrl: string }) {
  const [client, setClient] = useState<GenhubClient | undefined>(() => {
    const apiKey = storedApiKey();
    return apiKey ? createGenhubClient({ baseUrl, apiKey }) : undefined;
  });
  const [notice, setNotice] = useState<string>();
  const page = useHashRoute(PAGES, 'playground');

  const signOut = useCallback((message?: string) => {
    forgetApiKey();
    setClient(undefined);
    setNotice(message);
  }, []);

  if (!client) return <SignIn baseUrl={baseUrl} notice={notice} onSignedIn={setClient} />;
  return (
    <>
      <header className="top">
        <strong>genhub console</strong>
        <nav aria-label="Main">
          {PAGES.map((name) => (
            <a key={name} href={`#${name}`} aria-current={page === name ? 'page' : undefined}>
              {TITLES[name]}
            </a>
          ))}
        </nav>
        <button onClick={() => signOut()}>Sign out</button>
      </header>
      <main>
        {page === 'playground' && <Playground client={client} onSignedOut={signOut} />}
        {page === 'history' && <History client={client} onSignedOut={signOut} />}
        {page === 'chat' && <Chat client={client} onSignedOut={signOut} />}
        {page === 'usage' && (
          <Suspense fallback={<p aria-busy="true">Loading…</p>}>
            <Usage client={client} onSignedOut={signOut} />
          </Suspense>
        )}
      </main>
    </>
  );
}
