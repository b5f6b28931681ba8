import type { GenhubClient } from '@genhub/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { HashRouter, Link, Navigate, NavLink, Route, Routes } from 'react-router';
import { Chat } from './chat/chat';
import { History } from './history/history';
import { Keys } from './keys/keys';
import { Operator } from './operator/operator';
import { Playground } from './playground/playground';
import { SessionGate, useSession } from './session/session';
import { SignIn } from './session/sign-in';
import { apiError } from './common/api-error.util';

// The chart library loads with its page, not with the first one.
const Usage = lazy(() => import('./usage/usage'));

const PAGES = [
  { path: '/playground', title: 'Playground' },
  { path: '/history', title: 'History' },
  { path: '/usage', title: 'Usage' },
  { path: '/chat', title: 'Chat' },
  { path: '/keys', title: 'API keys' },
] as const;

/**
 * The console: an API-key holder's pages, and apart from them (its own
 * sign-in) the operator's. The page is in the address after `#` (`#/history`,
 * `#/operator/accounts/<id>`), so any static host serves every page from one
 * index.html with no rewrites; the older `#history` form opens the same page.
 */
export function App({ baseUrl }: { baseUrl: string }) {
  // Sign-in checks run before a session (and its own cache) exists.
  const [signInQueries] = useState(
    () => new QueryClient({ defaultOptions: { mutations: { networkMode: 'always' } } }),
  );
  return (
    <QueryClientProvider client={signInQueries}>
      <HashRouter>
        <Routes>
          <Route path="/operator/*" element={<Operator baseUrl={baseUrl} />} />
          <Route path="/*" element={<UserConsole baseUrl={baseUrl} />} />
        </Routes>
      </HashRouter>
    </QueryClientProvider>
  );
}

// Any valid key may list the chat models, whatever its scopes (a key without
// billing:read signs in too, and reads the refusals where it meets them).
async function verifyApiKey(client: GenhubClient): Promise<void> {
  const { error, response } = await client.GET('/v1/models');
  if (error !== undefined) throw apiError(response.status, error);
}

function UserConsole({ baseUrl }: { baseUrl: string }) {
  return (
    <SessionGate
      kind="apiKey"
      baseUrl={baseUrl}
      signIn={(notice, signedIn) => (
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
            <Link to="/operator">Operator? Sign in with the admin token</Link>
          </p>
        </SignIn>
      )}
    >
      <UserPages />
    </SessionGate>
  );
}

function UserPages() {
  const { signOut } = useSession();
  return (
    <>
      <header className="top">
        <strong>genhub console</strong>
        <nav aria-label="Main">
          {PAGES.map(({ path, title }) => (
            <NavLink key={path} to={path}>
              {title}
            </NavLink>
          ))}
        </nav>
        <button onClick={() => signOut()}>Sign out</button>
      </header>
      <main>
        <Routes>
          <Route path="/playground" element={<Playground />} />
          <Route path="/history" element={<History />} />
          <Route path="/chat" element={<Chat />} />
          <Route path="/keys" element={<Keys />} />
          <Route
            path="/usage"
            element={
              <Suspense fallback={<p aria-busy="true">Loading…</p>}>
                <Usage />
              </Suspense>
            }
          />
          <Route path="*" element={<Navigate to="/playground" replace />} />
        </Routes>
      </main>
    </>
  );
}
