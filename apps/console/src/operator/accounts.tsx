import type { AdminAccount as Account, GenhubClient } from '@genhub/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { dataOf } from '../common/api-error.util';
import { ListState, showFailure } from '../common/failure';
import { OnceSecret } from './once-secret';

const CURRENCIES = ['USD', 'CNY'] as const;
const LEVELS = ['Bronze', 'Silver', 'Gold', 'Platinum'] as const;
const PER_PAGE = 20;

interface Props {
  client: GenhubClient;
  onOpen(accountId: string): void;
  onSignedOut(message: string): void;
}

/** The accounts, newest first, with a status filter and pages; creating one; opening one by id. */
export function Accounts({ client, onOpen, onSignedOut }: Props) {
  const [status, setStatus] = useState<'' | Account['status']>('');
  // The cursors of the pages before this one (keyset pages go forward only).
  const [cursors, setCursors] = useState<string[]>([]);
  const [page, setPage] = useState<{ items: Account[]; next: string | null }>();
  const [error, setError] = useState<string>();
  const [reload, setReload] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setPage(undefined);
    setError(undefined);
    client
      .GET('/admin/v1/accounts', {
        params: {
          query: {
            limit: PER_PAGE,
            ...(status ? { status } : {}),
            ...(cursors.length ? { cursor: cursors[cursors.length - 1] } : {}),
          },
        },
        signal: controller.signal,
      })
      .then(dataOf)
      .then((data) => {
        setPage({ items: data.data, next: data.next_cursor });
      })
      .catch((e: unknown) => {
        if (!controller.signal.aborted) showFailure(e, setError, onSignedOut);
      });
    return () => controller.abort();
  }, [client, status, cursors, reload, onSignedOut]);

  return (
    <section aria-labelledby="accounts-title">
      <h2 id="accounts-title">Accounts</h2>
      <CreateAccount
        client={client}
        onCreated={() => setReload((n) => n + 1)}
        onOpen={onOpen}
        onSignedOut={onSignedOut}
      />
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
            <option>active</option>
            <option>suspended</option>
          </select>
        </label>
      </div>
      <ListState
        items={page?.items}
        error={error}
        onRetry={() => setReload((n) => n + 1)}
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

function CreateAccount({
  client,
  onCreated,
  onOpen,
  onSignedOut,
}: {
  client: GenhubClient;
  onCreated(): void;
  onOpen(accountId: string): void;
  onSignedOut(message: string): void;
}) {
  const [currency, setCurrency] = useState<Account['currency']>('USD');
  const [level, setLevel] = useState<Account['account_level']>('Bronze');
  const [balance, setBalance] = useState('0');
  const [created, setCreated] = useState<Account>();
  const [error, setError] = useState<string>();

  async function create(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    try {
      const data = dataOf(
        await client.POST('/admin/v1/accounts', {
          body: { currency, account_level: level, balance: Number(balance) },
        }),
      );
      setCreated(data);
      onCreated();
    } catch (e) {
      showFailure(e, setError, onSignedOut);
    }
  }

  return (
    <form onSubmit={create} className="card" aria-labelledby="create-account-title">
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
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
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
