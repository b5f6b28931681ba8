// node-postgres options for the tools' own connections, made by the apps' one
// function (`postgresConnection` in @genhub/config, decision 0138): DATABASE_URL's
// sslmode honoured, DATABASE_TLS_CA (a PEM file's path or PEM text) as its CA.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** `{ connectionString, ssl }` for `new pg.Client(...)` / `new pg.Pool(...)`; `tlsCa` as DATABASE_TLS_CA. */
export function postgresOptions(url, tlsCa) {
  require('../build/register-ts.cjs');
  const { postgresConnection } = require('@genhub/config');
  return postgresConnection(url, tlsCa || undefined);
}
