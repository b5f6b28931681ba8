import type { GenhubClient } from '@genhub/contracts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { dataOf } from '../common/api-error.util';
import { failureMessage } from '../common/failure';
import { keyChoiceText } from '../keys/key-settings.util';
import { ownKeysApi } from '../keys/keys-api';
import { useSession } from '../session/session';
import { CostChart } from './cost-chart';
import { costSeries, daysBetween, isoDay } from './usage-days.util';

const PER_PAGE = 20;
type RecordType = 'top-up' | 'usage' | '';

/** The query's key filter: one key's records (`api_key_id`), or the whole account's. */
const byKey = (keyId: string) => (keyId ? { api_key_id: keyId } : {});

async function usageOf(
  client: GenhubClient,
  from: string,
  to: string,
  keyId: string,
  signal: AbortSignal,
) {
  const data = dataOf(
    await client.GET('/api/v3/usage', {
      params: { query: { start_date: from, end_date: to, ...byKey(keyId) } },
      signal,
    }),
  );
  return data.data;
}

/**
 * Balance and tier, daily cost by category over a range with its totals, billing
 * records, CSV export; for the whole account or one of its keys (a key that may
 * list the account's keys gets the choice).
 */
export default function Usage() {
  const { client } = useSession();
  const [today] = useState(() => isoDay(new Date()));
  const [start, setStart] = useState(() => isoDay(new Date(Date.now() - 6 * 86_400_000)));
  const [end, setEnd] = useState(today);
  const [type, setType] = useState<RecordType>('');
  const [page, setPage] = useState(1);
  const [keyId, setKeyId] = useState('');
  const inOrder = start <= end;
  const keysApi = useMemo(() => ownKeysApi(client), [client]);

  // Refused without keys:manage: then there is no choice to offer, and nothing to say.
  const keysQuery = useQuery({
    queryKey: keysApi.queryKey,
    queryFn: ({ signal }) => keysApi.list(signal),
  });

  const balanceQuery = useQuery({
    queryKey: ['balance'],
    queryFn: async ({ signal }) => dataOf(await client.GET('/v1/balance', { signal })),
  });
  // The range's totals and one figure per day for the chart, read together.
  const range = useQuery({
    queryKey: ['usage', start, end, keyId],
    enabled: inOrder,
    queryFn: async ({ signal }) => {
      const days = daysBetween(start, end);
      const [whole, ...daily] = await Promise.all([
        usageOf(client, start, end, keyId, signal),
        ...days.map((day) => usageOf(client, day, day, keyId, signal)),
      ]);
      return {
        // Whose figures these are: a new choice shows the last ones until its own are read.
        keyId,
        totals: whole,
        chart: {
          days,
          series: costSeries(
            days,
            daily.map((d) => d.breakdown),
          ),
        },
      };
    },
    placeholderData: keepPreviousData,
  });
  const records = useQuery({
    queryKey: ['billings', page, type, keyId],
    queryFn: async ({ signal }) =>
      dataOf(
        await client.GET('/api/v3/billings', {
          params: {
            query: { page, per_page: PER_PAGE, ...(type ? { type } : {}), ...byKey(keyId) },
          },
          signal,
        }),
      ).data,
    placeholderData: keepPreviousData,
  });
  const exportCsv = useMutation({
    mutationFn: async () => {
      const data = dataOf(
        await client.GET('/api/v3/billings/export', {
          params: {
            query: {
              start_date: start,
              end_date: end,
              ...(type ? { type } : {}),
              ...byKey(keyId),
            },
          },
          parseAs: 'blob',
        }),
      );
      const link = document.createElement('a');
      link.href = URL.createObjectURL(data);
      link.download = `genhub-billings-${start}-${end}${keyId ? `-key-${keyId.slice(0, 8)}` : ''}.csv`;
      link.click();
      URL.revokeObjectURL(link.href);
    },
  });

  const balance = balanceQuery.data;
  const totals = range.data?.totals;
  const chart = range.data?.chart;
  const error = inOrder
    ? failureMessage(exportCsv.error, range.error, records.error, balanceQuery.error)
    : 'The range must start before it ends.';
  const currency = balance?.currency ?? '';
  const pages = records.data ? Math.max(1, Math.ceil(records.data.total / PER_PAGE)) : 1;
  return (
    <section aria-labelledby="usage-title" className="usage">
      <h2 id="usage-title">Usage and billing</h2>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <p className="balance">
        {balance ? (
          <>
            Balance: <strong>{balance.balance}</strong> {balance.currency} · tier{' '}
            <strong>{balance.account_level}</strong>
          </>
        ) : (
          <span aria-busy="true">Loading balance…</span>
        )}
      </p>
      <div className="filters">
        <label>
          From
          <input type="date" value={start} max={end} onChange={(e) => setStart(e.target.value)} />
        </label>
        <label>
          To
          <input type="date" value={end} max={today} onChange={(e) => setEnd(e.target.value)} />
        </label>
        {keysQuery.data && (
          <label>
            API key
            <select
              value={keyId}
              onChange={(e) => {
                setKeyId(e.target.value);
                setPage(1);
              }}
            >
              <option value="">All keys</option>
              {keysQuery.data.map((key) => (
                <option key={key.id} value={key.id}>
                  {keyChoiceText(key)}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {totals && (
        <p className="totals" aria-busy={range.isPlaceholderData}>
          {totals.total_tasks} task(s), <strong>{totals.total_cost}</strong> {currency} in this
          range{range.data?.keyId ? ' by this key' : ''}
        </p>
      )}
      {chart && <CostChart days={chart.days} series={chart.series} currency={currency} />}
      <h3>Billing records</h3>
      <div className="filters">
        <label>
          Type
          <select
            value={type}
            onChange={(e) => {
              setType(e.target.value as RecordType);
              setPage(1);
            }}
          >
            <option value="">All</option>
            <option value="usage">usage</option>
            <option value="top-up">top-up</option>
          </select>
        </label>
        <button onClick={() => exportCsv.mutate()}>Export CSV of the range</button>
      </div>
      {records.data && !records.data.records.length && <p>No billing record.</p>}
      {records.data && records.data.records.length > 0 && (
        <table className="tasks records">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Type</th>
              <th scope="col">Amount</th>
              <th scope="col">Model</th>
              <th scope="col">Balance after</th>
            </tr>
          </thead>
          <tbody>
            {records.data.records.map((record) => (
              <tr key={record.id}>
                <td>{record.date}</td>
                <td>{record.type}</td>
                <td>{record.amount}</td>
                <td>{record.model ? <code>{record.model}</code> : '—'}</td>
                <td>{record.balance_after}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav aria-label="Record pages" className="pages">
        <button disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
          Previous page
        </button>
        <span>
          Page {page} of {pages}
        </span>
        <button disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
          Next page
        </button>
      </nav>
    </section>
  );
}
