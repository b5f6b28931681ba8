import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { toApiError } from './api-error.util';

/**
 * The cache of one signed-in session: made at sign-in, dropped at sign-out, so
 * what one credential read never shows under another. Any read or change the
 * server answers with 401 (the key revoked, the token changed) signs out here,
 * with the server's message for the sign-in page; every other failure is the
 * page's to show.
 */
export function sessionQueryClient(signOut: (message: string) => void): QueryClient {
  const onError = (error: unknown) => {
    const known = toApiError(error);
    if (known.signedOut) signOut(known.message);
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      // A failure shows at once, with its Retry button (as before the cache).
      queries: { retry: false, networkMode: 'always', refetchOnWindowFocus: false },
      // "Offline" is a failure to say, not a reason to wait silently.
      mutations: { networkMode: 'always' },
    },
  });
}
