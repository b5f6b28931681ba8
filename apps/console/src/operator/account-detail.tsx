import type { AdminAccount as Account, GenhubClient } from '@genhub/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { apiError, dataOf } from '../common/api-error.util';
import { LoadFailed, showFailure } from '../common/failure';
import { ApiKeys } from './api-keys';
import { OnceSecret } from './once-secret';

interface Props {
  client: GenhubClient;
  accountId: string;
  onBack(): void;
  onSignedOut(message: string): void;
}

/** One account: its figures, top-up, suspend or unsuspend, a new webhook secret, its API keys. */
export function AccountDetail({ client, accountId, onBack, onSignedOut }: Props) {
  const [account, setAccount] = useState<Account>();
  const [loadError, setLoadError] = useState<string>();
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const [amount, setAmount] = useState('');
  const [secret, setSecret] = useState<string>();
  const [confirmRotate, setConfirmRotate] = useState(false);
  const path = { params: { path: { id: accountId } } };
  const fail = (e: unknown) => showFailure(e, setError, onSignedOut);

  async function load() {
    setLoadError(undefined);
    try {
      const data = dataOf(await client.GET('/admin/v1/accounts/{id}', path));
      setAccount(data);
    } catch (e) {
      showFailure(e, setLoadError, onSignedOut);
    }
  }

  useEffect(() => {
    void load();
  }, [client, accountId]);

  /** Runs one change, reads the account again, then says what it did (message and figures agree). */
  async function change(run: () => Promise<string>) {
    setError(undefined);
    setDone(undefined);
    try {
      const message = await run();
      await load();
      setDone(message);
    } catch (e) {
      fail(e);
    }
  }

  const topUp = (event: FormEvent) => {
    event.preventDefault();
    void change(async () => {
      const data = dataOf(
        await client.POST('/admin/v1/accounts/{id}/top-ups', {
          ...path,
          body: { amount: Number(amount) },
        }),
      );
      setAmount('');
      return `Topped up ${data.amount}; balance after: ${data.balance_after}.`;
    });
  };

  const setStatus = (to: 'suspend' | 'unsuspend') =>
    change(async () => {
      const { error: refused, response } = await client.POST(
        to === 'suspend' ? '/admin/v1/accounts/{id}/suspend' : '/admin/v1/accounts/{id}/unsuspend',
        path,
      );
      if (refused !== undefined) throw apiError(response.status, refused);
      return to === 'suspend'
        ? 'Suspended: its keys are refused (403) until it is unsuspended.'
        : 'Active again.';
    });

  const rotate = () =>
    change(async () => {
      setConfirmRotate(false);
      const data = dataOf(await client.POST('/admin/v1/accounts/{id}/webhook-secret', path));
      setSecret(data.webhook_secret);
      return 'New webhook secret: the old one no longer signs.';
    });

  if (loadError)
    return (
      <section>
        <button onClick={onBack}>Back to the accounts</button>
        <LoadFailed message={loadError} onRetry={() => void load()} />
      </section>
    );
  if (!account) return <p aria-busy="true">Loading the account…</p>;
  return (
    <section aria-labelledby="account-title" className="detail">
      <button onClick={onBack}>Back to the accounts</button>
      <h2 id="account-title">
        Account <code>{account.id}</code>
      </h2>
      <dl>
        <dt>Status</dt>
        <dd className={`status ${account.status === 'active' ? 'completed' : 'failed'}`}>
          {account.status}
        </dd>
        <dt>Tier</dt>
        <dd>{account.account_level}</dd>
        <dt>Balance</dt>
        <dd className="account-balance">
          {account.balance} {account.currency} ({account.reserved} reserved by running tasks)
        </dd>
      </dl>
      <form onSubmit={topUp} className="actions">
        <label>
          Top-up amount ({account.currency})
          <input
            type="number"
            min={0}
            step="any"
            required
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
        </label>
        <button type="submit" disabled={!(Number(amount) > 0)}>
          Top up
        </button>
      </form>
      <div className="actions">
        {account.status === 'active' ? (
          <button onClick={() => void setStatus('suspend')}>Suspend</button>
        ) : (
          <button onClick={() => void setStatus('unsuspend')}>Unsuspend</button>
        )}
        {confirmRotate ? (
          <>
            <span>The old secret stops signing at once.</span>
            <button onClick={() => void rotate()}>Yes, rotate</button>
            <button onClick={() => setConfirmRotate(false)}>Cancel</button>
          </>
        ) : (
          <button onClick={() => setConfirmRotate(true)}>Rotate webhook secret</button>
        )}
      </div>
      {done && (
        <p role="status" className="done">
          {done}
        </p>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {secret && <OnceSecret label="Webhook secret" value={secret} />}
      <ApiKeys client={client} accountId={account.id} onSignedOut={onSignedOut} />
    </section>
  );
}
