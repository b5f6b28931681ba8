import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Failure, ListState } from '../common/failure';
import { OnceSecret } from '../common/once-secret';
import { KeySettingsForm } from './key-form';
import {
  EMPTY_KEY_FORM,
  formOfKey,
  type KeyForm,
  limitReached,
  modelsText,
  scopesText,
  settingsOfForm,
  spendText,
} from './key-settings.util';
import type { KeysApi, KeyView } from './keys-api';

interface Props {
  api: KeysApi;
  /** The account's currency ('' while unknown). */
  currency: string;
  /** "Create a key" on the account's page, "Issue a key" on the operator's. */
  createLabel: string;
}

const when = (iso: string | null, none: string) => (iso ? new Date(iso).toLocaleString() : none);

/**
 * Keys with their limits, for whoever `api` calls as: issue one (its key shown
 * once), change a key's limits, revoke one after a confirmation; each key's
 * spend against its limit, as text and as a bar.
 */
export function KeysPanel({ api, currency, createLabel }: Props) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<KeyView>();
  const [revoking, setRevoking] = useState<string>();
  const keysQuery = useQuery({ queryKey: api.queryKey, queryFn: ({ signal }) => api.list(signal) });
  const keys = keysQuery.data;
  const reload = () => queryClient.invalidateQueries({ queryKey: api.queryKey });

  const issue = useMutation({
    mutationFn: (form: KeyForm) => api.create(settingsOfForm(form, 'create')),
    onSuccess: reload,
  });
  const update = useMutation({
    onMutate: () => issue.reset(),
    mutationFn: ({ key, form }: { key: KeyView; form: KeyForm }) =>
      api.update(key.id, settingsOfForm(form, 'update')),
    onSuccess: () => {
      setEditing(undefined);
      return reload();
    },
  });
  const revoke = useMutation({
    onMutate: () => issue.reset(),
    mutationFn: (keyId: string) => api.revoke(keyId),
    onSuccess: reload,
  });
  // The key issued last, shown until the page closes.
  const issued = issue.data;
  const label = (key: KeyView) => key.name ?? key.prefix;

  return (
    <>
      {editing ? (
        <>
          <p>
            Changing the limits of <strong>{label(editing)}</strong>:
          </p>
          <KeySettingsForm
            key={editing.id}
            initial={formOfKey(editing)}
            submitLabel="Save limits"
            currency={currency}
            busy={update.isPending}
            onSubmit={(form) => update.mutate({ key: editing, form })}
            onCancel={() => {
              update.reset();
              setEditing(undefined);
            }}
          />
        </>
      ) : (
        <KeySettingsForm
          // A fresh form after each key issued.
          key={issued?.id ?? 'new'}
          initial={EMPTY_KEY_FORM}
          submitLabel={createLabel}
          currency={currency}
          busy={issue.isPending}
          onSubmit={(form) => issue.mutate(form)}
        />
      )}
      {issued && <OnceSecret label="API key" value={issued.key} />}
      {update.isSuccess && (
        <p role="status" className="done">
          Limits saved for {label(update.data)}.
        </p>
      )}
      <Failure error={issue.error ?? update.error ?? revoke.error} />
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
                <th scope="col">Key</th>
                <th scope="col">Status</th>
                <th scope="col">Limits</th>
                <th scope="col">Spent</th>
                <th scope="col">Used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id}>
                  <td>
                    <span className="key-name">{key.name ?? <em>unnamed</em>}</span>
                    <br />
                    <code className="prefix">{key.prefix}…</code>
                  </td>
                  <td className={key.status === 'active' ? 'status' : 'status failed'}>
                    {key.status}
                    {key.revoked_at ? ` ${when(key.revoked_at, '')}` : ''}
                  </td>
                  <td className="limits">
                    <span>Models: {modelsText(key.allowed_models)}</span>
                    <span>Scopes: {scopesText(key.scopes)}</span>
                    <span>Expires: {when(key.expires_at, 'never')}</span>
                  </td>
                  <td className="spent">
                    <span
                      className={limitReached(key.spent, key.spend_limit) ? 'error' : undefined}
                    >
                      {spendText(key.spent, key.spend_limit, currency)}
                      {limitReached(key.spent, key.spend_limit) && ' — limit reached'}
                    </span>
                    {key.spend_limit && (
                      <meter
                        min={0}
                        max={key.spend_limit.amount}
                        value={Math.min(key.spent, key.spend_limit.amount)}
                        aria-label={`Spent of the limit of ${label(key)}`}
                      />
                    )}
                  </td>
                  <td>
                    Last: {when(key.last_used_at, 'never')}
                    <br />
                    Issued: {when(key.created_at, '')}
                  </td>
                  <td>
                    {key.status !== 'revoked' &&
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
                        <>
                          <button onClick={() => setEditing(key)}>Edit {label(key)}</button>{' '}
                          <button onClick={() => setRevoking(key.id)}>Revoke {label(key)}</button>
                        </>
                      ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
