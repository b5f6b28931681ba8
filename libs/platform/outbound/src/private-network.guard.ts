import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Ranges no outbound call may reach unless ALLOW_PRIVATE_NETWORK_URLS=true:
 * loopback, private, link-local (incl. cloud metadata 169.254.169.254), CGNAT,
 * unspecified, multicast and reserved, for IPv4 and IPv6 (incl. IPv4-mapped).
 */
const BLOCKED_RANGES = new Set([
  'unspecified',
  'broadcast',
  'multicast',
  'linkLocal',
  'loopback',
  'private',
  'uniqueLocal',
  'carrierGradeNat',
  'reserved',
  'benchmarking',
  'amt',
  'as112',
  'as112v6',
  'deprecated',
  'orchid2',
  'droneRemoteIdProtocolEntityTags',
  'ipv4Mapped',
  'rfc6145',
  'rfc6052',
  '6to4',
  'teredo',
  'discard',
]);

export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return BLOCKED_RANGES.has(parsed.range());
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * Checks a URL before it is accepted (at submit): http(s) only, and a host
 * that is a literal private address is refused. Names are checked again at
 * connect time by `guardedLookup`.
 */
export function checkOutboundUrl(raw: string, allowPrivate: boolean): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, reason: 'must be an http(s) URL' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate) {
    if (isIP(host) && isPrivateAddress(host))
      return { ok: false, reason: 'points to a private network address' };
    if (host === 'localhost' || host.endsWith('.localhost')) {
      return { ok: false, reason: 'points to a private network address' };
    }
  }
  return { ok: true, url };
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `dns.lookup` replacement for HTTP agents (undici `connect.lookup`, Node
 * `http.Agent`): resolves, then refuses private addresses, so the address
 * checked is the address connected to.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      const blocked = !allowPrivate && list.some((a) => isPrivateAddress(a.address));
      if (blocked) {
        const error: NodeJS.ErrnoException = new Error(
          `${hostname} resolves to a private network address`,
        );
        error.code = 'EPRIVATEADDRESS';
        return callback(error, []);
      }
      if ((options as { all?: boolean }).all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
