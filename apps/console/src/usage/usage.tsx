import type { Balance, BillingsPage, GenhubClient, UsageStatistics } from '@genhub/contracts';
import { useEffect, useState } from 'react';
import { dataOf } from '../common/api-error.util';
import { showFailure } from '../common/failure';
import { CostChart } from './cost-chart';
import { costSeries, daysBetween, isoDay } from './usage-days.util';

interface Props {
  client: GenhubClient;
  onSignedOut(message: string): void;
}

const PER_PAGE = 20;
type RecordType = 'top-up' | 'usage' | '';

/** Balance and tier, daily cost by category over a range with its totals, billing records, CSV export. */
export default function Usage({ client, onSignedOut }: Props) {
  const today = isoDay(new Date());
  const [start, setStart] = useState(isoDay(new Date(Date.now() - 6 * 86_400_000)));
  const [end, setEnd] = useState(today);
  const [balance, setBalance] = useState<Balance>();
  const [totals, setTotals] = useState<UsageStatistics>();
  const [chart, setChart] = useState<{ days: string[]; series: ReturnType<typeof costSeries> }>();
  const [type, setType] = useState<RecordType>('');
  const [page, setPage] = useState(1);
  const [records, setRecords] = useState<BillingsPage>();
  const [error, setError] = useState<string>();

  const fail = (e: unknown) => showFailure(e, setError, onSignedOut);
  const usage = async (from: string, to: string) => {
    const data = dataOf(
      await client.GET('/api/v3/usage', {
        params: { query: { start_date: from, end_date: to } },
      }),
    );
    return data.data;
  };

  useEffect(() => {
    setError(undefined);
    client
      .GET('/v1/balance')
      .then(dataOf)
      .then((data) => {
        setBalance(data);
      })
      .catch(fail);
  }, [client]);

  useEffect(() => {
    if (start > end) return setError('The range must start before it ends.');
    setError(undefined);
    const days = daysBetween(start, end);
    Promise.all([usage(start, end), ...days.map((day) => usage(day, day))])
      .then(([whole, ...daily]) => {
        setTotals(whole);
        setChart({
          days,
          series: costSeries(
            days,
            daily.map((d) => d.breakdown),
          ),
        });
      })
      .catch(fail);
  }, [client, start, end]);

  useEffect(() => {
    client
      .GET('/api/v3/billings', {
        params: { query: { page, per_page: PER_PAGE, ...(type ? { type } : {}) } },
      })
      .then(dataOf)
      .then((data) => {
        setRecords(data.data);
      })
      .catch(fail);
  }, [client, page, type]);

  async function exportCsv() {
    try {
      const data = dataOf(
        await client.GET('/api/v3/billings/export', {
          params: { query: { start_date: start, end_date: end, ...(type ? { type } : {}) } },
          parseAs: 'blob',
        }),
      );
      const link = document.createElement('a');
      link.href = URL.createObjectURL(data);
      link.download = `genhub-billings-${start}-${end}.csv`;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (e) {
      fail(e);
    }
  }

  const currency = balance?.currency ?? '';
  const pages = records ? Math.max(1, Math.ceil(records.total / PER_PAGE)) : 1;
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
      </div>
      {totals && (
        <p className="totals">
          {totals.total_tasks} task(s), <strong>{totals.total_cost}</strong> {currency} in this
          range
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
        <button onClick={() => void exportCsv()}>Export CSV of the range</button>
      </div>
      {records && !records.records.length && <p>No billing record.</p>}
      {records && records.records.length > 0 && (
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
            {records.records.map((record) => (
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
