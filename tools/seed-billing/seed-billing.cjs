#!/usr/bin/env node
// Seeds one account's ledger with a million (or --records N) billing records
// in seconds, consistent with its balance (the audit stays clean), then, with
// --measure, times the billing use-cases on it exactly as the gateway runs them.
//   node tools/seed-billing/seed-billing.cjs [options]   (--help lists them)
const { randomUUID } = require('node:crypto');
const { Client } = require('pg');
const { seedLedger } = require('./seed-ledger.cjs');
// The currencies as the platform states them (the build's own compiler reads the TypeScript).
require('../build/register-ts.cjs');
const { CURRENCIES, DEFAULT_CURRENCY } = require('@genhub/money');

const HELP = `usage: node tools/seed-billing/seed-billing.cjs [options]

Seeds one account's ledger with billing records in seconds, consistent with its
balance (npm run admin -- audit stays clean), on a database the gateway's
migrations have created; with --measure, then times the billing use-cases on it
(pages, usage, audit) as the gateway runs them.

options:
  --records N          billing records to write, a top-up of 100 every 100th (default 1000000)
  --days N             days the records are spread over, ending now (default 365)
  --account UUID       an account created through the admin API (balance 0, no
                       records yet), so its key can query the ledger over HTTP
                       (default: a new id that exists only in the ledger)
  --currency ${CURRENCIES.join('|').padEnd(10)}the ledger's currency (default ${DEFAULT_CURRENCY})
  --measure            time the billing use-cases on the seeded ledger afterwards
  --database-url URL   the database (default: the DATABASE_URL environment variable)
  -h, --help           print this help`;

/** The options, or the help / one line and exit 2 (tools/lib/command-line.mjs). */
async function commandLine() {
  const { parseCommandLine, usageError } = await import('../lib/command-line.mjs');
  const { values } = parseCommandLine({
    name: 'seed-billing',
    usage: HELP,
    options: {
      records: { type: 'string', default: '1000000' },
      days: { type: 'string', default: '365' },
      account: { type: 'string' },
      currency: { type: 'string', default: DEFAULT_CURRENCY },
      measure: { type: 'boolean', default: false },
      'database-url': { type: 'string' },
    },
  });
  const records = Number(values.records);
  if (!Number.isInteger(records) || records < 1)
    usageError('seed-billing', '--records must be a positive integer');
  if (!CURRENCIES.includes(values.currency))
    usageError('seed-billing', `--currency must be ${CURRENCIES.join(' or ')}`);
  const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL;
  if (!databaseUrl) usageError('seed-billing', 'set DATABASE_URL or pass --database-url');
  return { ...values, records, databaseUrl };
}

async function timed(label, runs, fn) {
  await fn(); // warm-up
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn();
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  ms.sort((a, b) => a - b);
  const p = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(2);
  console.log(`  ${label.padEnd(44)} median ${p(0.5)} ms   p95 ${p(0.95)} ms   (${runs} runs)`);
}

async function measure(databaseUrl, accountId) {
  require('reflect-metadata');
  const { DataSource } = require('typeorm');
  const { dataSourceOptions } = require('@genhub/database');
  const data = require('@genhub/billing-data-access');
  const feature = require('@genhub/billing-feature');
  const dataSource = new DataSource(
    dataSourceOptions({
      url: databaseUrl,
      tlsCa: process.env.DATABASE_TLS_CA,
      entities: data.BILLING_ENTITIES,
    }),
  );
  await dataSource.initialize();
  try {
    const history = new data.BillingHistoryRepository(dataSource);
    const billings = new feature.ListBillingsUseCase(history);
    const usage = new feature.GetUsageUseCase(history);
    const audit = new feature.AuditLedgerUseCase(new data.LedgerAuditRepository(dataSource));
    console.log('latency (use-case + PostgreSQL, no HTTP):');
    await timed('billings page 1 (per_page 20)', 50, () => billings.execute({ accountId }));
    await timed('billings page 10,000 (per_page 20)', 50, () =>
      billings.execute({ accountId, page: 10_000 }),
    );
    await timed('billings page 10,000 (per_page 100, last)', 50, () =>
      billings.execute({ accountId, page: 10_000, perPage: 100 }),
    );
    await timed('billings page 5,000 type=top-up', 50, () =>
      billings.execute({ accountId, page: 500, type: 'top-up' }),
    );
    await timed('usage (current month)', 50, () => usage.execute({ accountId }));
    const today = new Date().toISOString().slice(0, 10);
    await timed('usage (start_date 2000-01-01 .. today)', 50, () =>
      usage.execute({ accountId, startDate: '2000-01-01', endDate: today }),
    );
    await timed('audit (all accounts)', 3, async () => {
      const report = await audit.execute();
      if (report.failing.some((a) => a.accountId === accountId))
        throw new Error(`audit fails for ${accountId}`);
    });
  } finally {
    await dataSource.destroy();
  }
}

async function main() {
  const options = await commandLine();
  const { records, databaseUrl } = options;
  const accountId = options.account ?? randomUUID();
  // DATABASE_URL's sslmode and DATABASE_TLS_CA, as the apps read them (decision 0138).
  const { postgresConnection } = require('@genhub/config');
  const client = new Client(postgresConnection(databaseUrl, process.env.DATABASE_TLS_CA));
  await client.connect();
  try {
    const started = Date.now();
    const result = await seedLedger(client, {
      accountId,
      currency: options.currency,
      records,
      days: Number(options.days),
    });
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `seeded account ${accountId}: ${records} records (${result.topups} top-ups, ${result.usages} usage) ` +
        `in ${seconds.toFixed(1)} s; balance ${(result.balanceUnits / 1e6).toFixed(6)} ${options.currency}`,
    );
    await client.query('ANALYZE billing.records, billing.usage_daily, billing.balances');
  } finally {
    await client.end();
  }
  if (options.measure) await measure(databaseUrl, accountId);
}

main().catch((error) => {
  process.stderr.write(`seed-billing: ${error.message}\n`);
  process.exit(1);
});
