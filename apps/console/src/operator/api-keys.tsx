import type { AdminApiKey, GenhubClient } from '@genhub/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { apiError, dataOf } from '../common/api-error.util';
import { ListState, showFailure } from '../common/failure';
import { OnceSecret } from './once-secret';

interface Props {
  client: GenhubClient;
  accountId: string;
  onSignedOut(message: string): void;
}

async function listKeys(client: GenhubClient, accountId: string): Promise<AdminApiKey[]> {
  const data = dataOf(
    await client.GET('/admin/v1/accounts/{id}/api-keys', {
      params: { path: { id: accountId } },
    }),
  );
  return data.data;
}

/** An account's API keys: issue one (its key shown once), revoke one. */
export function ApiKeys({ client, accountId, onSignedOut }: Props) {
  const [keys, setKeys] = useState<AdminApiKey[]>();
  const [loadError, setLoadError] = useState<string>();
  const [error, setError] = useState<string>();
  const [name, setName] = useState('');
  const [issued, setIssued] = useState<string>();
  const [revoking, setRevoking] = useState<string>();

  const load = () => {
    setLoadError(undefined);
    listKeys(client, accountId).then(setKeys, (e: unknown) =>
      showFailure(e, setLoadError, onSignedOut),
    );
  };
  useEffect(load, [client, accountId]);

  async function issue(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    try {
      const data = dataOf(
        await client.POST('/admin/v1/accounts/{id}/api-keys', {
          params: { path: { id: accountId } },
          body: name.trim() ? { name: name.trim() } : {},
        }),
      );
      setIssued(data.key);
      setName('');
      load();
    } catch (e) {
      showFailure(e, setError, onSignedOut);
    }
  }

  async function revoke(keyId: string) {
    setError(undefined);
    setRevoking(undefined);
    try {
      const { error: refused, response } = await client.DELETE('/admin/v1/api-keys/{keyId}', {
        params: { path: { keyId } },
      });
      if (refused !== undefined) throw apiError(response.status, refused);
      load();
    } catch (e) {
      showFailure(e, setError, onSignedOut);
    }
  }

  return (
    <section aria-labelledby="keys-title">
      <h3 id="keys-title">API keys</h3>
      <form onSubmit={issue} className="actions">
        <label>
          Key name (optional)
          <input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit">Issue a key</button>
      </form>
      {issued && <OnceSecret label="API key" value={issued} />}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <ListState
        items={keys}
        error={loadError}
        onRetry={load}
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
                          <button onClick={() => void revoke(key.id)}>Yes, revoke</button>{' '}
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
