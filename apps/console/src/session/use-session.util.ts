import { createGenhubClient, type GenhubClient } from '@genhub/contracts';
import { useCallback, useState } from 'react';
import { type Credential, forgetCredential, storedCredential } from './session.util';

export interface Session {
  /** The client with the stored credential; undefined until signed in. */
  client: GenhubClient | undefined;
  /** Why the last sign-out happened (a 401's message), for the sign-in page. */
  notice: string | undefined;
  signedIn(client: GenhubClient): void;
  signOut(message?: string): void;
}

/** One credential's session: the client made from what is stored, sign-in and sign-out. */
export function useSession(kind: Credential, baseUrl: string, onSignOut?: () => void): Session {
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
  return { client, notice, signedIn: setClient, signOut };
}
