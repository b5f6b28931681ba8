// Fills one account's ledger with `records` billing records, entirely inside
// PostgreSQL (generate_series + window sums), consistent with its balance so
// `npm run admin -- audit` stays clean. Shared by the CLI (seed-billing.cjs)
// and the deep-paging tests.
//
// Shape: record 1 and every 100th after it is a top-up of 100.000000; the
// others are usage records cycling through three categories (0.001, 0.005,
// 0.003), each with its own task id. created_at rises with seq, spread evenly
// over `days` days ending now, so usage rollups cover many days.

const { randomBytes } = require('node:crypto');

const TOPUP_UNITS = 100_000_000;
const CATEGORIES = [
  { category: 'test', model: 'local/simulator/test', units: 1000 },
  { category: 'text-to-image', model: 'acme/image-one/text-to-image', units: 5000 },
  { category: 'text-to-video', model: 'acme/video-one/text-to-video', units: 3000 },
];

/**
 * @param {import('pg').Client} client
 * @param {{ accountId: string, currency?: import('@genhub/money').Currency, records: number, days?: number }} opts
 * @returns {Promise<{ balanceUnits: number, topups: number, usages: number }>}
 */
async function seedLedger(client, opts) {
  const days = opts.days ?? 365;
  const caseOf = (field) =>
    `CASE g % 3 ${CATEGORIES.map((c, i) => `WHEN ${i} THEN ${typeof c[field] === 'number' ? c[field] : `'${c[field]}'`}`).join(' ')} END`;
  await client.query('BEGIN');
  try {
    // Ids unique to this seed run (18 random hex digits) and rising with g, so
    // each index is appended to rather than written at random: the difference
    // between seconds and a minute for a million rows. Still UUID v4-shaped.
    await client.query(
      `CREATE FUNCTION pg_temp.seq_uuid(run text, kind int, g bigint) RETURNS uuid
         LANGUAGE sql IMMUTABLE AS $f$
         SELECT (substr(run, 1, 8) || '-' || substr(run, 9, 4) || '-4' || substr(run, 13, 3) || '-'
                 || (8 + kind)::text || substr(run, 16, 3) || '-' || lpad(to_hex(g), 12, '0'))::uuid $f$`,
    );
    await client.query('SET LOCAL synchronous_commit = off');
    await client.query(
      `INSERT INTO billing.balances (account_id, currency) VALUES ($1, $2)
       ON CONFLICT (account_id) DO NOTHING`,
      [opts.accountId, opts.currency ?? 'USD'],
    );
    const [{ record_count: existing }] = (
      await client.query(
        `SELECT record_count FROM billing.balances WHERE account_id = $1 FOR UPDATE`,
        [opts.accountId],
      )
    ).rows;
    if (Number(existing) !== 0) throw new Error(`account ${opts.accountId} already has records`);
    await client.query(
      `INSERT INTO billing.records
         (id, account_id, seq, type_seq, type, amount_units, balance_after_units, model, category, task_id, created_at)
       SELECT pg_temp.seq_uuid($4, 0, g), $1, g, type_seq, type, amount,
              sum(amount) OVER (ORDER BY g ROWS UNBOUNDED PRECEDING),
              model, category, task_id, created_at
         FROM (
           SELECT g,
                  CASE WHEN top THEN 'top-up' ELSE 'usage' END AS type,
                  CASE WHEN top THEN (g - 1) / 100 + 1 ELSE g - ((g - 1) / 100 + 1) END AS type_seq,
                  CASE WHEN top THEN ${TOPUP_UNITS}::bigint ELSE -(${caseOf('units')})::bigint END AS amount,
                  CASE WHEN top THEN NULL ELSE ${caseOf('model')} END AS model,
                  CASE WHEN top THEN NULL ELSE ${caseOf('category')} END AS category,
                  CASE WHEN top THEN NULL ELSE pg_temp.seq_uuid($4, 1, g) END AS task_id,
                  now() - make_interval(secs => ($2::bigint - g) * ($3::float8 * 86400 / $2::bigint)) AS created_at
             FROM (SELECT g, (g - 1) % 100 = 0 AS top FROM generate_series(1, $2::bigint) g) s
         ) t`,
      [opts.accountId, opts.records, days, randomBytes(9).toString('hex')],
    );
    await client.query(
      `INSERT INTO billing.usage_daily (account_id, day, category, tasks, cost_units)
       SELECT account_id, (created_at AT TIME ZONE 'UTC')::date, category, count(*), -sum(amount_units)
         FROM billing.records WHERE account_id = $1 AND type = 'usage'
        GROUP BY 1, 2, 3`,
      [opts.accountId],
    );
    const { rows } = await client.query(
      `UPDATE billing.balances b
          SET balance_units = s.total, record_count = s.n, topup_count = s.topups,
              usage_count = s.n - s.topups, updated_at = now()
         FROM (SELECT coalesce(sum(amount_units), 0) AS total, count(*) AS n,
                      count(*) FILTER (WHERE type = 'top-up') AS topups
                 FROM billing.records WHERE account_id = $1) s
        WHERE b.account_id = $1
        RETURNING b.balance_units, b.topup_count, b.usage_count`,
      [opts.accountId],
    );
    await client.query('COMMIT');
    return {
      balanceUnits: Number(rows[0].balance_units),
      topups: Number(rows[0].topup_count),
      usages: Number(rows[0].usage_count),
    };
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

module.exports = { seedLedger, CATEGORIES, TOPUP_UNITS };

// A library: run directly, it answers --help and points at the command that uses it.
if (require.main === module) {
  import('../lib/command-line.mjs').then(({ parseCommandLine, usageError }) => {
    parseCommandLine({
      name: 'seed-ledger',
      usage: `usage: node tools/seed-billing/seed-billing.cjs [options]

tools/seed-billing/seed-ledger.cjs is the library behind seed-billing.cjs (and
the billing deep-paging tests): seedLedger(client, { accountId, currency, records,
days }) fills one account's ledger inside PostgreSQL, consistent with its balance.
It takes no options itself; run seed-billing.cjs (its --help lists the options).`,
    });
    usageError('seed-ledger', 'a library; run tools/seed-billing/seed-billing.cjs');
  });
}
