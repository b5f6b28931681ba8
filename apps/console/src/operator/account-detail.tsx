import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { MAX_CONCURRENT_TASKS_LIMIT } from '@genhub/contracts';
import { apiError, dataOf } from '../common/api-error.util';
import { Failure, LoadFailed } from '../common/failure';
import { useSession } from '../session/session';
import { capText, validCap } from './account-cap.util';
import { ApiKeys } from './api-keys';
import { OnceSecret } from '../common/once-secret';

/** What the operator can do to an account. */
type Change =
  | { kind: 'top-up'; amount: number }
  | { kind: 'suspend' }
  | { kind: 'unsuspend' }
  | { kind: 'rotate' }
  /** The cap on its tasks running at once; null removes it. */
  | { kind: 'cap'; max: number | null };

/**
 * One account: its figures, top-up, its cap on tasks running at once, suspend or unsuspend,
 * a new webhook secret, its API keys.
 */
export function AccountDetail({ accountId }: { accountId: string }) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const onBack = () => void navigate('/operator');
  const [amount, setAmount] = useState('');
  const [cap, setCap] = useState('');
  const [secret, setSecret] = useState<string>();
  const [confirmRotate, setConfirmRotate] = useState(false);
  const path = { params: { path: { id: accountId } } };

  const accountQuery = useQuery({
    queryKey: ['accounts', 'one', accountId],
    queryFn: async ({ signal }) =>
      dataOf(await client.GET('/admin/v1/accounts/{id}', { ...path, signal })),
  });
  const account = accountQuery.data;

  /** One change; the account is read again before it says what it did (message and figures agree). */
  const change = useMutation({
    mutationFn: async (what: Change): Promise<string> => {
      switch (what.kind) {
        case 'top-up': {
          const data = dataOf(
            await client.POST('/admin/v1/accounts/{id}/top-ups', {
              ...path,
              body: { amount: what.amount },
            }),
          );
          setAmount('');
          return `Topped up ${data.amount}; balance after: ${data.balance_after}.`;
        }
        case 'suspend':
        case 'unsuspend': {
          const { error, response } = await client.POST(
            what.kind === 'suspend'
              ? '/admin/v1/accounts/{id}/suspend'
              : '/admin/v1/accounts/{id}/unsuspend',
            path,
          );
          if (error !== undefined) throw apiError(response.status, error);
          return what.kind === 'suspend'
            ? 'Suspended: its keys are refused (403) until it is unsuspended.'
            : 'Active again.';
        }
        case 'cap': {
          const data = dataOf(
            await client.PATCH('/admin/v1/accounts/{id}', {
              ...path,
              body: { max_concurrent_tasks: what.max },
            }),
          );
          setCap('');
          return data.max_concurrent_tasks === null
            ? 'Cap removed: its tasks run as workers are free.'
            : `Cap set: at most ${capText(data.max_concurrent_tasks)}; the rest wait aside while other accounts run.`;
        }
        case 'rotate': {
          const data = dataOf(await client.POST('/admin/v1/accounts/{id}/webhook-secret', path));
          setSecret(data.webhook_secret);
          return 'New webhook secret: the old one no longer signs.';
        }
      }
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['accounts'] }),
  });
  const done = change.isSuccess ? change.data : undefined;

  const topUp = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ kind: 'top-up', amount: Number(amount) });
  };
  const setLimit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ kind: 'cap', max: Number(cap) });
  };
  const rotate = () => {
    setConfirmRotate(false);
    change.mutate({ kind: 'rotate' });
  };

  if (accountQuery.error)
    return (
      <section>
        <button onClick={onBack}>Back to the accounts</button>
        <LoadFailed error={accountQuery.error} onRetry={() => void accountQuery.refetch()} />
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
        <dt>Tasks running at once</dt>
        <dd className="account-cap">{capText(account.max_concurrent_tasks)}</dd>
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
      <form onSubmit={setLimit} className="actions">
        <label>
          Cap on tasks running at once (1–{MAX_CONCURRENT_TASKS_LIMIT})
          <input
            type="number"
            min={1}
            max={MAX_CONCURRENT_TASKS_LIMIT}
            step={1}
            required
            value={cap}
            onChange={(e) => setCap(e.target.value)}
          />
        </label>
        <button type="submit" disabled={!validCap(cap)}>
          Set cap
        </button>
        {account.max_concurrent_tasks !== null && (
          <button type="button" onClick={() => change.mutate({ kind: 'cap', max: null })}>
            Remove cap
          </button>
        )}
      </form>
      <div className="actions">
        {account.status === 'active' ? (
          <button onClick={() => change.mutate({ kind: 'suspend' })}>Suspend</button>
        ) : (
          <button onClick={() => change.mutate({ kind: 'unsuspend' })}>Unsuspend</button>
        )}
        {confirmRotate ? (
          <>
            <span>The old secret stops signing at once.</span>
            <button onClick={rotate}>Yes, rotate</button>
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
      <Failure error={change.error} />
      {secret && <OnceSecret label="Webhook secret" value={secret} />}
      <ApiKeys accountId={account.id} currency={account.currency} />
    </section>
  );
}
