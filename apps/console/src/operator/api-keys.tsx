import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { apiError, dataOf } from '../common/api-error.util';
import { Failure, ListState } from '../common/failure';
import { useSession } from '../session/session';
import { OnceSecret } from './once-secret';

/** An account's API keys: issue one (its key shown once), revoke one. */
export function ApiKeys({ accountId }: { accountId: string }) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [revoking, setRevoking] = useState<string>();
  const queryKey = ['accounts', 'one', accountId, 'api-keys'];
  const path = { params: { path: { id: accountId } } };

  const keysQuery = useQuery({
    queryKey,
    queryFn: async ({ signal }) =>
      dataOf(await client.GET('/admin/v1/accounts/{id}/api-keys', { ...path, signal })).data,
  });
  const keys = keysQuery.data;
  const reload = () => queryClient.invalidateQueries({ queryKey });

  const issue = useMutation({
    mutationFn: async (keyName: string) =>
      dataOf(
        await client.POST('/admin/v1/accounts/{id}/api-keys', {
          ...path,
          body: keyName ? { name: keyName } : {},
        }),
      ).key,
    onSuccess: () => {
      setName('');
      return reload();
    },
  });
  const revoke = useMutation({
    onMutate: () => issue.reset(),
    mutationFn: async (keyId: string) => {
      const { error, response } = await client.DELETE('/admin/v1/api-keys/{keyId}', {
        params: { path: { keyId } },
      });
      if (error !== undefined) throw apiError(response.status, error);
    },
    onSuccess: reload,
  });
  // The key issued last, shown until the page closes.
  const issued = issue.data;

  function submit(event: FormEvent) {
    event.preventDefault();
    issue.mutate(name.trim());
  }

  return (
    <section aria-labelledby="keys-title">
      <h3 id="keys-title">API keys</h3>
      <form onSubmit={submit} className="actions">
        <label>
          Key name (optional)
          <input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit">Issue a key</button>
      </form>
      {issued && <OnceSecret label="API key" value={issued} />}
      <Failure error={issue.error ?? revoke.error} />
      <ListState
        items={keys}
        error={keysQuery.error}
        onRetry={() => void keysQuery.refetch()}
        loading="Loading keys…"
        empty="No keys yet."
      />
      {keys && keys.length > 0 && (
        <div className="table-scroll">
          <table className="tasks keys">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Issued</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id}>
                  <td>{key.name ?? <em>unnamed</em>}</td>
                  <td>{new Date(key.created_at).toLocaleString()}</td>
                  <td className={key.status === 'revoked' ? 'status failed' : undefined}>
                    {key.status}
                    {key.revoked_at ? ` ${new Date(key.revoked_at).toLocaleString()}` : ''}
                  </td>
                  <td>
                    {key.status === 'active' &&
                      (revoking === key.id ? (
                        <>
                          <button
                            onClick={() => {
                              setRevoking(undefined);
                              revoke.mutate(key.id);
                            }}
                          >
                            Yes, revoke
                          </button>{' '}
                          <button onClick={() => setRevoking(undefined)}>Cancel</button>
                        </>
                      ) : (
                        <button onClick={() => setRevoking(key.id)}>
                          Revoke {key.name ?? 'key'}
                        </button>
                      ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
