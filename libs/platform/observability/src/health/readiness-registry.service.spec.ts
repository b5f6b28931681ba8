import { ReadinessRegistry } from './readiness-registry.service';

describe('ReadinessRegistry', () => {
  it('answers ok only when every check passes, naming each failure', async () => {
    const readiness = new ReadinessRegistry();
    readiness.register('redis', async () => undefined);
    readiness.register('postgres', async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
        code: 'ECONNREFUSED',
      });
    });
    expect(await readiness.run()).toEqual({
      ok: false,
      checks: { redis: 'ok', postgres: 'failed: connect ECONNREFUSED 127.0.0.1:5432' },
    });
  });

  it('names a TLS failure as one, however the driver wrapped it (decision 0138)', async () => {
    const readiness = new ReadinessRegistry();
    readiness.register('postgres', async () => {
      // What TypeORM throws for a connection whose certificate failed verification.
      throw Object.assign(new Error('Query failed'), {
        driverError: Object.assign(new Error('self-signed certificate in certificate chain'), {
          code: 'SELF_SIGNED_CERT_IN_CHAIN',
        }),
      });
    });
    expect((await readiness.run()).checks.postgres).toBe(
      'failed: TLS: certificate not trusted (SELF_SIGNED_CERT_IN_CHAIN: self-signed certificate in certificate chain)',
    );
  });
});
