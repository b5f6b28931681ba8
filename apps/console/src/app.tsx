import type { GenhubClient } from '@genhub/contracts';
import { lazy, Suspense } from 'react';
import { Chat } from './chat/chat';
import { History } from './history/history';
import { Operator } from './operator/operator';
import { Playground } from './playground/playground';
import { SignIn } from './session/sign-in';
import { useSession } from './session/use-session.util';
import { apiError } from './common/api-error.util';
import { useHashRoute } from './common/use-hash-route.util';

// The chart library loads with its page, not with the first one.
const Usage = lazy(() => import('./usage/usage'));

const PAGES = ['playground', 'history', 'usage', 'chat', 'operator'] as const;
type Page = Exclude<(typeof PAGES)[number], 'operator'>;
const TITLES: Record<Page, string> = {
  playground: 'Playground',
  history: 'History',
  usage: 'Usage',
  chat: 'Chat',
};

/** The console: an API-key holder's pages, and apart from them (its own sign-in) the operator's. */
export function App({ baseUrl }: { baseUrl: string }) {
  const page = useHashRoute(PAGES, 'playground');
  if (page === 'operator') return <Operator baseUrl={baseUrl} />;
  return <UserConsole baseUrl={baseUrl} page={page} />;
}

async function verifyApiKey(client: GenhubClient): Promise<void> {
  const { error, response } = await client.GET('/v1/balance');
  if (error !== undefined) throw apiError(response.status, error);
}

function UserConsole({ baseUrl, page }: { baseUrl: string; page: Page }) {
  const { client, notice, signedIn, signOut } = useSession('apiKey', baseUrl);

  if (!client)
    return (
      <SignIn
        baseUrl={baseUrl}
        credential="apiKey"
        title="genhub console"
        label="API key"
        notice={notice}
        verify={verifyApiKey}
        onSignedIn={signedIn}
      >
        <p>
          <a href="#operator">Operator? Sign in with the admin token</a>
        </p>
      </SignIn>
    );
  return (
    <>
      <header className="top">
        <strong>genhub console</strong>
        <nav aria-label="Main">
          {(Object.keys(TITLES) as Page[]).map((name) => (
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
