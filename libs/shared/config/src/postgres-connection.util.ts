import { readCaBundle } from './tls-ca.util';

/** The `sslmode` values of DATABASE_URL we honour, as libpq means them (decision 0138). */
export const POSTGRES_SSL_MODES = ['disable', 'require', 'verify-ca', 'verify-full'] as const;
export type PostgresSslMode = (typeof POSTGRES_SSL_MODES)[number];

/**
 * Parameters node-postgres reads from a connection string's query to build its
 * own TLS options. They would replace the options built here (a parsed URL
 * wins over an explicit `ssl`), so they are taken out of the string.
 */
const TLS_PARAMETERS = ['sslmode', 'ssl', 'sslrootcert', 'sslcert', 'sslkey', 'uselibpqcompat'];

/** Parameters we refuse rather than half-honour: the CA comes from DATABASE_TLS_CA, client certificates are not supported. */
const REFUSED_PARAMETERS: Record<string, string> = {
  sslrootcert: 'set DATABASE_TLS_CA to the CA bundle instead of sslrootcert',
  sslcert: 'client certificates (sslcert) are not supported: use password authentication',
  sslkey: 'client certificates (sslkey) are not supported: use password authentication',
  ssl: 'use sslmode=require, verify-ca or verify-full instead of ssl=',
  uselibpqcompat: 'sslmode is always read as libpq reads it: remove uselibpqcompat',
};

/** The TLS options we set: what both node-postgres and TypeORM take. */
export interface PostgresTlsOptions {
  ca?: string;
  rejectUnauthorized?: boolean;
  checkServerIdentity?: () => undefined;
}

/** What node-postgres (a Client, a Pool, TypeORM's `url` + `ssl`) takes to connect. */
export interface PostgresConnection {
  /** DATABASE_URL without its TLS parameters (they are in `ssl`). */
  connectionString: string;
  /** false: plaintext; otherwise the TLS options of the socket. */
  ssl: false | PostgresTlsOptions;
  /** The mode in force, for messages. */
  sslMode: PostgresSslMode;
}

/** Why DATABASE_URL's TLS parameters are unusable, or undefined. */
export function postgresTlsProblem(url: string): string | undefined {
  const { params } = splitQuery(url);
  for (const [name, reason] of Object.entries(REFUSED_PARAMETERS))
    if (params.has(name)) return `has ${name}: ${reason}`;
  const mode = params.get('sslmode');
  if (mode !== null && !(POSTGRES_SSL_MODES as readonly string[]).includes(mode))
    return `has sslmode=${mode}: must be one of ${POSTGRES_SSL_MODES.join(', ')}`;
  return undefined;
}

/**
 * The one way DATABASE_URL and DATABASE_TLS_CA become node-postgres options,
 * for the apps, the migrations, the CLIs and the tools alike. `sslmode` as
 * libpq reads it: `disable` plaintext; `require` encrypted, unverified — or,
 * with a CA, verified as `verify-ca` is; `verify-ca` the chain is checked
 * against the CA (the system's when none is set); `verify-full` the chain and
 * the host name (or IP address) in the URL. Unset: plaintext, as before —
 * unless a CA is set, which means `verify-full`. Throws on a value
 * `postgresTlsProblem` refuses.
 */
export function postgresConnection(url: string, tlsCa?: string): PostgresConnection {
  const problem = postgresTlsProblem(url);
  if (problem) throw new Error(`DATABASE_URL ${problem}`);
  const { base, params } = splitQuery(url);
  const given = params.get('sslmode') as PostgresSslMode | null;
  for (const name of TLS_PARAMETERS) params.delete(name);
  const rest = params.toString();
  const connectionString = rest ? `${base}?${rest}` : base;
  const sslMode: PostgresSslMode = given ?? (tlsCa ? 'verify-full' : 'disable');
  const ca = tlsCa ? readCaBundle(tlsCa) : undefined;
  const skipHostCheck = { checkServerIdentity: () => undefined };
  switch (sslMode) {
    case 'disable':
      return { connectionString, ssl: false, sslMode };
    case 'require':
      return {
        connectionString,
        ssl: ca ? { ca, ...skipHostCheck } : { rejectUnauthorized: false },
        sslMode,
      };
    case 'verify-ca':
      return { connectionString, ssl: { ...(ca ? { ca } : {}), ...skipHostCheck }, sslMode };
    case 'verify-full':
      return { connectionString, ssl: ca ? { ca } : {}, sslMode };
  }
}

/** The URL before its query, and the query's parameters (the URL is not normalised: `postgres://u@/db?host=/run` stays as it is). */
function splitQuery(url: string): { base: string; params: URLSearchParams } {
  const at = url.indexOf('?');
  return at < 0
    ? { base: url, params: new URLSearchParams() }
    : { base: url.slice(0, at), params: new URLSearchParams(url.slice(at + 1)) };
}
