import { checkOutboundUrl, guardedLookup, isPrivateAddress } from './private-network.guard';

describe('private-network guard', () => {
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
