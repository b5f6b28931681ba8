import type { GenhubClient } from '@genhub/contracts';
import { Link, Navigate, NavLink, Route, Routes, useParams } from 'react-router';
import { SessionGate, useSession } from '../session/session';
import { SignIn } from '../session/sign-in';
import { ApiError, apiError } from '../common/api-error.util';
import { AccountDetail } from './account-detail';
import { Accounts } from './accounts';
import { QueueAccounts } from './queue-accounts';
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

/** The operator's pages (`#/operator/…`), behind the admin token (entered apart from any API key). */
export function Operator({ baseUrl }: { baseUrl: string }) {
  return (
    <SessionGate
      kind="adminToken"
      baseUrl={baseUrl}
      onSignOut={forgetQueueBoardCookie}
      signIn={(notice, signedIn) => (
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
            <Link to="/playground">Back to the console</Link>
          </p>
        </SignIn>
      )}
    >
      <OperatorPages baseUrl={baseUrl} />
    </SessionGate>
  );
}

function OperatorPages({ baseUrl }: { baseUrl: string }) {
  const { signOut } = useSession();
  return (
    <>
      <header className="top">
        <strong>genhub operator</strong>
        <nav aria-label="Operator">
          <NavLink to="/operator" end>
            Accounts
          </NavLink>
          <NavLink to="/operator/queue">Queue</NavLink>
          <QueueBoardLink baseUrl={baseUrl} />
          <Link to="/playground">User console</Link>
        </nav>
        <button onClick={() => signOut()}>Sign out</button>
      </header>
      <main>
        <Routes>
          <Route index element={<Accounts />} />
          <Route path="accounts/:accountId" element={<AccountPage />} />
          <Route path="queue" element={<QueueAccounts />} />
          <Route path="*" element={<Navigate to="/operator" replace />} />
        </Routes>
      </main>
    </>
  );
}

function AccountPage() {
  const { accountId = '' } = useParams();
  // A new account id is a new page: nothing of the last one's state carries over.
  return <AccountDetail key={accountId} accountId={accountId} />;
}
