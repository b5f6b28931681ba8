import type { AdminQueueAccount } from '@genhub/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { dataOf } from '../common/api-error.util';
import { ListState } from '../common/failure';
import { useSession } from '../session/session';
import { accountPath } from './accounts';

const PER_PAGE = 20;
/** The page reads again this often while it is open (the server's metrics refresh as often). */
const REFRESH_MS = 15_000;

const since = (at: string | null) => (at ? new Date(at).toLocaleString() : '—');

/** The queue by account (issue 36): who waits most, who runs, and the whole queue's totals. */
export function QueueAccounts() {
  const { client } = useSession();
  // The cursors of the pages before this one (keyset pages go forward only).
  const [cursors, setCursors] = useState<string[]>([]);
  const query = {
    limit: PER_PAGE,
    ...(cursors.length ? { cursor: cursors[cursors.length - 1] } : {}),
  };
  const queue = useQuery({
    queryKey: ['queue', 'accounts', query],
    queryFn: async ({ signal }) =>
      dataOf(await client.GET('/admin/v1/queue/accounts', { params: { query }, signal })),
    refetchInterval: REFRESH_MS,
  });
  const page = queue.data;

  return (
    <section aria-labelledby="queue-title">
      <h2 id="queue-title">Queue by account</h2>
      {page && (
        <p className="queue-totals">
          {page.totals.waiting} waiting and {page.totals.running} running, over{' '}
          {page.totals.accounts} {page.totals.accounts === 1 ? 'account' : 'accounts'}.
        </p>
      )}
      <ListState
        items={page?.data}
        error={queue.error}
        onRetry={() => void queue.refetch()}
        loading="Loading the queue…"
        empty="No account has tasks waiting or running."
      />
      {page && page.data.length > 0 && (
        <div className="table-scroll">
          <table className="tasks queue-accounts">
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Waiting</th>
                <th scope="col">Running</th>
                <th scope="col">Oldest waiting since</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((row: AdminQueueAccount) => (
                <tr key={row.account_id}>
                  <td>
                    <Link to={accountPath(row.account_id)}>
                      <code>{row.account_id}</code>
                    </Link>
                  </td>
                  <td>{row.waiting}</td>
                  <td>{row.running}</td>
                  <td>{since(row.oldest_waiting_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="pages">
        <button disabled={!cursors.length} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous page
        </button>
        <button
          disabled={!page?.next_cursor}
          onClick={() => page?.next_cursor && setCursors((c) => [...c, page.next_cursor as string])}
        >
          Next page
        </button>
      </div>
    </section>
  );
}
