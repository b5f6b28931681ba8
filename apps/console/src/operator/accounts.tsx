import {
  ACCOUNT_LEVELS as LEVELS,
  ACCOUNT_STATUSES as STATUSES,
  type AdminAccount as Account,
} from '@genhub/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { dataOf } from '../common/api-error.util';
import { Failure, ListState } from '../common/failure';
import { useSession } from '../session/session';
import { OnceSecret } from '../common/once-secret';

// Levels and statuses come from the contracts. The currencies' list lives with the money
// arithmetic (@genhub/money, not in the browser bundle): keyed by the contracts' type, a
// currency the API adds or drops fails the console's type check here.
const CURRENCIES = Object.keys({ USD: 0, CNY: 0 } satisfies Record<Account['currency'], 0>);
const PER_PAGE = 20;

/** An account's page. */
export const accountPath = (accountId: string) => `/operator/accounts/${accountId}`;

/** The accounts, newest first, with a status filter and pages; creating one; opening one by id. */
export function Accounts() {
  const { client } = useSession();
  const navigate = useNavigate();
  const onOpen = (accountId: string) => void navigate(accountPath(accountId));
  const [status, setStatus] = useState<'' | Account['status']>('');
  // The cursors of the pages before this one (keyset pages go forward only).
  const [cursors, setCursors] = useState<string[]>([]);
  const query = {
    limit: PER_PAGE,
    ...(status ? { status } : {}),
    ...(cursors.length ? { cursor: cursors[cursors.length - 1] } : {}),
  };
  const accounts = useQuery({
    queryKey: ['accounts', 'list', query],
    queryFn: async ({ signal }) =>
      dataOf(await client.GET('/admin/v1/accounts', { params: { query }, signal })),
  });
  const page = accounts.data && { items: accounts.data.data, next: accounts.data.next_cursor };

  return (
    <section aria-labelledby="accounts-title">
      <h2 id="accounts-title">Accounts</h2>
      <CreateAccount onOpen={onOpen} />
      <OpenById onOpen={onOpen} />
      <div className="filters">
        <label>
          Status
          <select
            value={status}
            onChange={(e) => {
              setCursors([]);
              setStatus(e.target.value as typeof status);
            }}
          >
            <option value="">All</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
      </div>
      <ListState
        items={page?.items}
        error={accounts.error}
        onRetry={() => void accounts.refetch()}
        loading="Loading accounts…"
        empty="No account matches."
      />
      {page && page.items.length > 0 && (
        <div className="table-scroll">
          <table className="tasks accounts">
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Status</th>
                <th scope="col">Tier</th>
                <th scope="col">Balance</th>
                <th scope="col">Reserved</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((account) => (
                <tr key={account.id}>
                  <td>
                    <button className="link" onClick={() => onOpen(account.id)}>
                      <code>{account.id}</code>
                    </button>
                  </td>
                  <td className={`status ${account.status === 'active' ? '' : 'failed'}`}>
                    {account.status}
                  </td>
                  <td>{account.account_level}</td>
                  <td>
                    {account.balance} {account.currency}
                  </td>
                  <td>{account.reserved}</td>
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
          disabled={!page?.next}
          onClick={() => page?.next && setCursors((c) => [...c, page.next as string])}
        >
          Next page
        </button>
      </div>
    </section>
  );
}

function CreateAccount({ onOpen }: { onOpen(accountId: string): void }) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  const [currency, setCurrency] = useState<Account['currency']>('USD');
  const [level, setLevel] = useState<Account['account_level']>('Bronze');
  const [balance, setBalance] = useState('0');
  const create = useMutation({
    mutationFn: async () =>
      dataOf(
        await client.POST('/admin/v1/accounts', {
          body: { currency, account_level: level, balance: Number(balance) },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['accounts', 'list'] }),
  });
  const created = create.data;

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate();
  }

  return (
    <form onSubmit={submit} className="card" aria-labelledby="create-account-title">
      <h3 id="create-account-title">Create an account</h3>
      <div className="actions">
        <label>
          Currency
          <select
            value={currency}
            onChange={(e) => setCurrency(e.target.value as Account['currency'])}
          >
            {CURRENCIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <label>
          Tier
          <select
            value={level}
            onChange={(e) => setLevel(e.target.value as Account['account_level'])}
          >
            {LEVELS.map((l) => (
              <option key={l}>{l}</option>
            ))}
          </select>
        </label>
        <label>
          Opening balance
          <input
            type="number"
            min={0}
            step="any"
            value={balance}
            onChange={(e) => setBalance(e.target.value)}
          />
        </label>
        <button type="submit">Create account</button>
      </div>
      <Failure error={create.error} />
      {created && (
        <div className="created">
          <p>
            Account <code>{created.id}</code> created.{' '}
            <button type="button" className="link" onClick={() => onOpen(created.id)}>
              Open it
            </button>
          </p>
          {created.webhook_secret && (
            <OnceSecret label="Webhook secret" value={created.webhook_secret} />
          )}
        </div>
      )}
    </form>
  );
}

function OpenById({ onOpen }: { onOpen(accountId: string): void }) {
  const [id, setId] = useState('');
  return (
    <form
      className="actions"
      onSubmit={(e) => {
        e.preventDefault();
        if (id.trim()) onOpen(id.trim());
      }}
    >
      <label>
        Account id
        <input value={id} onChange={(e) => setId(e.target.value)} />
      </label>
      <button type="submit" disabled={!id.trim()}>
        Open account
      </button>
    </form>
  );
}
