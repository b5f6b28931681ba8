import { isIP } from 'node:net';
import { connect } from 'node:tls';
import type { RedisTopology } from '@genhub/config';

/** Node's codes for a server certificate it refused: untrusted, out of date, or for another name. */
const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'INVALID_CA',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The Redis servers' certificate is refused: a configuration problem no retry mends. */
export class RedisCertificateError extends Error {
  constructor(address: string, cause: Error & { code?: string }) {
    super(
      `Redis: TLS certificate of ${address} refused: ${cause.message} (${cause.code}); ` +
        'check REDIS_TLS_CA and the host names the servers are reached by',
    );
    this.name = 'RedisCertificateError';
  }
}

/** Whether `error` is Node refusing a server certificate. */
export function isCertificateError(error: unknown): error is Error & { code: string } {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && CERTIFICATE_CODES.has(code);
}

interface Endpoint {
  host: string;
  port: number;
  ca?: string;
}

/** Where the first TLS handshakes go: the standalone server, the Sentinels or the cluster's seeds. */
function tlsEndpoints(topology: RedisTopology): Endpoint[] {
  if (topology.kind === 'standalone') {
    const url = new URL(topology.url);
    if (url.protocol !== 'rediss:') return [];
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    return [{ host, port: Number(url.port || 6379), ca: topology.ca }];
  }
  if (!topology.auth.tls) return [];
  const addresses = topology.kind === 'sentinel' ? topology.sentinels : topology.nodes;
  return addresses.map((address) => ({ ...address, ca: topology.auth.ca }));
}

/** One TLS handshake as ioredis makes it; rejects only when the certificate is refused. */
function handshake({ host, port, ca }: Endpoint, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      host,
      port,
      ...(ca === undefined ? {} : { ca }),
      ...(isIP(host) ? {} : { servername: host }),
    });
    const done = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (isCertificateError(error)) reject(new RedisCertificateError(`${host}:${port}`, error));
      else resolve(); // accepted, or unreachable: the connections' own retries handle that
    };
    const timer = setTimeout(() => done(), ms);
    socket.once('secureConnect', () => done());
    socket.once('error', done);
  });
}

/**
 * Checks the certificates of the first servers a TLS topology reaches, with
 * the CA bundle the connections use: a refused certificate rejects with a
 * RedisCertificateError of one line. An unreachable server does not: Redis
 * may come later (decision 0022), but a wrong CA never mends by itself.
 */
export async function checkRedisCertificates(topology: RedisTopology, ms = 3000): Promise<void> {
  await Promise.all(tlsEndpoints(topology).map((endpoint) => handshake(endpoint, ms)));
}
