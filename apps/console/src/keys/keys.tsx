import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { dataOf } from '../common/api-error.util';
import { useSession } from '../session/session';
import { KeysPanel } from './keys-panel';
import { ownKeysApi } from './keys-api';

/**
 * The signed-in account's API keys (`#/keys`): what a key with the scope
 * keys:manage may do without the operator — issue keys no wider than itself,
 * limit them, revoke them. Another key reads the API's refusal here.
 */
export function Keys() {
  const { client } = useSession();
  const api = useMemo(() => ownKeysApi(client), [client]);
  // The currency of the amounts (a key without billing:read shows them without it).
  const balance = useQuery({
    queryKey: ['balance'],
    queryFn: async ({ signal }) => dataOf(await client.GET('/v1/balance', { signal })),
  });
  return (
    <section aria-labelledby="keys-title" className="keys-page">
      <h2 id="keys-title">API keys</h2>
      <p>
        Keys of this account, each with its own limits: the models it may use, what it may spend,
        when it expires, what it may do. A key can only create keys within its own limits, and needs
        the scope <code>keys:manage</code> to manage any.
      </p>
      <KeysPanel api={api} currency={balance.data?.currency ?? ''} createLabel="Create a key" />
    </section>
  );
}
