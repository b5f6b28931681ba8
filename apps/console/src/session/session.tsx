import { createGenhubClient, type GenhubClient } from '@genhub/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { sessionQueryClient } from '../common/query-client';
import { type Credential, forgetCredential, storedCredential } from './session.util';

export interface Session {
  /** The client with the session's credential. */
  client: GenhubClient;
  /** Forgets the credential and its cache; `message` (a 401's) is shown on the sign-in page. */
  signOut(message?: string): void;
}

const SessionContext = createContext<Session | undefined>(undefined);

/** The signed-in session of the page being shown (inside a `SessionGate`). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() outside a signed-in SessionGate');
  return session;
}

interface GateProps {
  kind: Credential;
  baseUrl: string;
  /** What else signing out takes away (the queue board's cookie). */
  onSignOut?(): void;
  /** The sign-in page, given the reason of the last sign-out and what to do on success. */
  signIn(notice: string | undefined, signedIn: (client: GenhubClient) => void): ReactNode;
  /** The pages, once signed in: they read the session with `useSession()`. */
  children: ReactNode;
}

/**
 * One credential's session: the client made from what is stored, its own
 * query cache, sign-in and sign-out. Until there is a client it shows the
 * sign-in page instead of its pages.
 */
export function SessionGate({ kind, baseUrl, onSignOut, signIn, children }: GateProps) {
  const [client, setClient] = useState<GenhubClient | undefined>(() => {
    const secret = storedCredential(kind);
    return secret ? createGenhubClient({ baseUrl, apiKey: secret }) : undefined;
  });
  const [notice, setNotice] = useState<string>();
  const signOut = useCallback(
    (message?: string) => {
      forgetCredential(kind);
      onSignOut?.();
      setClient(undefined);
      setNotice(message);
    },
    [kind, onSignOut],
  );
  // A new cache for each sign-in.
  const queryClient = useMemo(() => client && sessionQueryClient(signOut), [client, signOut]);
  const session = useMemo(() => client && { client, signOut }, [client, signOut]);

  if (!session || !queryClient) return signIn(notice, setClient);
  return (
    <SessionContext.Provider value={session}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </SessionContext.Provider>
  );
}
