import type { GenhubClient } from '@genhub/contracts';
import { useState } from 'react';
import { SignIn } from '../session/sign-in';
import { useSession } from '../session/use-session.util';
import { ApiError, apiError } from '../common/api-error.util';
import { AccountDetail } from './account-detail';
import { Accounts } from './accounts';
import { forgetQueueBoardCookie, QueueBoardLink } from './queue-board-link';

/** The admin token passes when it may list one account; a 404 means the admin API is off. */
async function verifyAdminToken(client: GenhubClient): Promise<void> {
  const { error, response } = await client.GET('/admin/v1/accounts', {
    params: { query: { limit: 1 } },
  });
  if (response.status === 404)
    throw new ApiError(404, 'The admin API is disabled on this server (ADMIN_TOKEN is unset).');
  if (error !== undefined) throw apiError(response.status, error);
}

/** The operator's pages, behind the admin token (entered apart from any API key). */
export function Operator({ baseUrl }: { baseUrl: string }) {
  const { client, notice, signedIn, signOut } = useSession(
    'adminToken',
    baseUrl,
    forgetQueueBoardCookie,
  );
  const [accountId, setAccountId] = useState<string>();

  if (!client)
    return (
      <SignIn
        baseUrl={baseUrl}
        credential="adminToken"
        title="genhub operator"
        label="Admin token"
        notice={notice}
        verify={verifyAdminToken}
        onSignedIn={signedIn}
      >
        <p>
          <a href="#playground">Back to the console</a>
        </p>
      </SignIn>
    );
  return (
    <>
      <header className="top">
        <strong>genhub operator</strong>
        <nav aria-label="Operator">
          <a
            href="#operator"
            aria-current={accountId ? undefined : 'page'}
            onClick={() => setAccountId(undefined)}
          >
            Accounts
          </a>
          <QueueBoardLink baseUrl={baseUrl} />
          <a href="#playground">User console</a>
        </nav>
        <button onClick={() => signOut()}>Sign out</button>
      </header>
      <main>
        {accountId ? (
          <AccountDetail
            client={client}
            accountId={accountId}
            onBack={() => setAccountId(undefined)}
            onSignedOut={signOut}
          />
        ) : (
          <Accounts client={client} onOpen={setAccountId} onSignedOut={signOut} />
        )}
      </main>
    </>
  );
}
