import { checkOutboundUrl, guardedLookup, isPrivateAddress } from './private-network.util';

describe('private-network check', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::ffff:127.0.0.1',
    'fd00::1',
    'fe80::1',
  ])('refuses %s', (ip) => expect(isPrivateAddress(ip)).toBe(true));

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'])('allows %s', (ip) =>
    expect(isPrivateAddress(ip)).toBe(false),
  );

  // Issue 34: the IPv6 forms that embed an IPv4 address, and the deprecated and local-use
  // ranges, whatever ipaddr.js's own range table (its version) says of them.
  describe('IPv6 forms that embed IPv4, site-local and local-use NAT64', () => {
    it.each([
      // IPv4-compatible (::/96, deprecated by RFC 4291), dotted and in hex: what it embeds...
      ['::127.0.0.1', 'compatible, loopback'],
      ['::7f00:1', 'compatible, loopback, in hex'],
      ['::10.0.0.1', 'compatible, private'],
      ['::a00:1', 'compatible, private, in hex'],
      ['::169.254.169.254', 'compatible, metadata'],
      ['0:0:0:0:0:0:c0a8:101', 'compatible, private, uncompressed'],
      // ...and the whole range, public or not: nothing public is reached that way.
      ['::8.8.8.8', 'compatible, public'],
      ['::808:808', 'compatible, public, in hex'],
      // Site-local (fec0::/10, deprecated by RFC 3879).
      ['fec0::1', 'site-local'],
      ['fec0:0:0:1::1', 'site-local subnet'],
      ['feff:ffff::1', 'site-local, end of the range'],
      // NAT64: the well-known prefix reaches what it embeds (RFC 6052)...
      ['64:ff9b::10.0.0.1', 'NAT64, private'],
      ['64:ff9b::a00:1', 'NAT64, private, in hex'],
      ['64:ff9b::127.0.0.1', 'NAT64, loopback'],
      ['64:ff9b::169.254.169.254', 'NAT64, metadata'],
      ['64:ff9b::8.8.8.8', 'NAT64, public (the prefix is refused whole)'],
      // ...and the local-use prefix (64:ff9b:1::/48, RFC 8215) is a network's own.
      ['64:ff9b:1::1', 'local-use NAT64'],
      ['64:ff9b:1::10.0.0.1', 'local-use NAT64, private'],
      ['64:ff9b:1:ffff::8.8.8.8', 'local-use NAT64, public'],
      // IPv4-mapped and IPv4-translated keep being judged by what they embed.
      ['::ffff:10.0.0.1', 'mapped, private'],
      ['::ffff:a00:1', 'mapped, private, in hex'],
      ['::ffff:0:7f00:1', 'translated, loopback'],
    ])('refuses %s (%s)', (ip) => expect(isPrivateAddress(ip)).toBe(true));

    it.each([
      ['::ffff:8.8.8.8', 'mapped, public: it is 8.8.8.8'],
      ['::ffff:808:808', 'mapped, public, in hex'],
      ['64:ff9a::a00:1', 'just below the NAT64 prefix'],
      ['64:ff9b:2::a00:1', 'just above the local-use NAT64 prefix'],
      ['fe00::1', 'just below site-local'],
    ])('allows %s (%s)', (ip) => expect(isPrivateAddress(ip)).toBe(false));

    it('refuses them in URLs at submit, as the URL parser writes them', () => {
      for (const host of ['[::127.0.0.1]', '[::a00:1]', '[fec0::1]', '[64:ff9b:1::1]'])
        expect(checkOutboundUrl(`http://${host}/hook`, false)).toEqual({
          ok: false,
          reason: 'points to a private network address',
        });
      expect(checkOutboundUrl('http://[::ffff:8.8.8.8]/hook', false)).toMatchObject({ ok: true });
    });
  });

  it('checks URLs at submit', () => {
    expect(checkOutboundUrl('ftp://example.com/x', false)).toEqual({
      ok: false,
      reason: 'must be an http(s) URL',
    });
    expect(checkOutboundUrl('http://127.0.0.1:8080/hook', false)).toMatchObject({ ok: false });
    expect(checkOutboundUrl('http://[::1]/hook', false)).toMatchObject({ ok: false });
    expect(checkOutboundUrl('http://localhost/hook', false)).toMatchObject({ ok: false });
    expect(checkOutboundUrl('http://127.0.0.1:8080/hook', true)).toMatchObject({ ok: true });
    expect(checkOutboundUrl('https://example.com/hook?a=1&b=2', false)).toMatchObject({ ok: true });
    expect(checkOutboundUrl('not a url', false)).toMatchObject({ ok: false });
  });

  it('refuses a name that resolves to a private address at connect time', async () => {
    const lookup = guardedLookup(false);
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      lookup('localhost', {}, (err) => resolve(err)),
    );
    expect(error?.code).toBe('EPRIVATEADDRESS');
    const allowed = await new Promise<string>((resolve, reject) =>
      guardedLookup(true)('localhost', {}, (err, address) =>
        err ? reject(err) : resolve(address as string),
      ),
    );
    expect(['127.0.0.1', '::1']).toContain(allowed);
  });
});
