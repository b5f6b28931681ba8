import { useMemo } from 'react';
import { useSession } from '../session/session';
import { KeysPanel } from '../keys/keys-panel';
import { accountKeysApi } from '../keys/keys-api';

/** An account's API keys: issue one with its limits (the key shown once), change its limits, revoke. */
export function ApiKeys({ accountId, currency }: { accountId: string; currency: string }) {
  const { client } = useSession();
  const api = useMemo(() => accountKeysApi(client, accountId), [client, accountId]);
  return (
    <section aria-labelledby="keys-title">
      <h3 id="keys-title">API keys</h3>
      <KeysPanel api={api} currency={currency} createLabel="Issue a key" />
    </section>
  );
}
