import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Ranges no outbound call may reach unless ALLOW_PRIVATE_NETWORK_URLS=true:
 * loopback, private, link-local (incl. cloud metadata 169.254.169.254), CGNAT,
 * unspecified, multicast and reserved, for IPv4 and IPv6 (ipaddr.js's names;
 * the IPv6 forms that embed IPv4 are judged apart, below).
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
  'deprecatedSiteLocal',
  'orchid2',
  'droneRemoteIdProtocolEntityTags',
  'ipv4Mapped',
  'rfc6145',
  'rfc6052',
  '6to4',
  'teredo',
  'discard',
]);

const cidr = (range: string) => ipaddr.IPv6.parseCIDR(range);

/**
 * IPv6 ranges refused whole, by our own table rather than only by the range
 * names of ipaddr.js (whose table changes between versions) — issue 34,
 * decision 0129. None is a public destination.
 */
const BLOCKED_IPV6 = [
  // IPv4-compatible (RFC 4291 2.5.5.1, deprecated): `::a.b.c.d`, with :: and ::1.
  cidr('::/96'),
  // Site-local (RFC 3879, deprecated): a network's own, like fc00::/7.
  cidr('fec0::/10'),
  // NAT64, well-known prefix (RFC 6052): reaches the IPv4 address it embeds.
  cidr('64:ff9b::/96'),
  // NAT64, local-use prefix (RFC 8215): a network's own translator.
  cidr('64:ff9b:1::/48'),
];

/** IPv6 forms whose last 32 bits are the IPv4 address they stand for (or reach). */
const EMBEDS_IPV4 = [
  cidr('::ffff:0:0/96'), // IPv4-mapped
  cidr('::/96'), // IPv4-compatible
  cidr('::ffff:0:0:0/96'), // IPv4-translated (RFC 6145)
  cidr('64:ff9b::/96'), // NAT64 (RFC 6052)
];

/**
 * `::a.b.c.d` with its IPv4 tail written as two hex groups. ipaddr.js reads
 * the dotted IPv4-compatible form as IPv4-mapped (`::ffff:a.b.c.d`), another
 * address: the groups are what the socket connects to.
 */
function withHexTail(address: string): string {
  const match = /^(.*:)(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})(%.*)?$/.exec(address);
  if (!match || !ipaddr.IPv4.isValidFourPartDecimal(match[2])) return address;
  const [a, b, c, d] = ipaddr.IPv4.parse(match[2]).octets;
  const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
  return `${match[1]}${hex(a, b)}:${hex(c, d)}${match[3] ?? ''}`;
}

function isPrivateIPv4(address: ipaddr.IPv4): boolean {
  return BLOCKED_RANGES.has(address.range());
}

/**
 * Whether an address is one no outbound call may reach: a private, local or
 * reserved IPv4 or IPv6 address, an IPv6 form that embeds such an IPv4
 * address (mapped, compatible, translated, NAT64), or one of the IPv6 ranges
 * refused whole. Anything that is not an address is refused too.
 */
export function isPrivateAddress(address: string): boolean {
  const normalized = address.includes(':') ? withHexTail(address) : address;
  if (!ipaddr.isValid(normalized)) return true;
  const parsed = ipaddr.parse(normalized);
  if (parsed.kind() === 'ipv4') return isPrivateIPv4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  if (EMBEDS_IPV4.some((range) => v6.match(range))) {
    const [, , , , , , high, low] = v6.parts;
    const embedded = new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
    if (isPrivateIPv4(embedded)) return true;
    // A mapped address is the IPv4 address itself: a public one may be reached.
    if (v6.isIPv4MappedAddress()) return false;
  }
  return BLOCKED_RANGES.has(v6.range()) || BLOCKED_IPV6.some((range) => v6.match(range));
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
