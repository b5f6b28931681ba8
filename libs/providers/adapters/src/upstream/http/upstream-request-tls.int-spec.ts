import { trustedCas } from '@genhub/config';
import { TaskCode } from '@genhub/errors';
import { trustForOutboundFetch } from '@genhub/outbound';
import {
  createTestCertificateAuthority,
  type TestCertificateAuthority,
  WebhookReceiver,
} from '@genhub/testing';
import { AdapterError } from '../../contract/model-adapter.types';
import { callUpstream } from './upstream-request.util';

/** An upstream on a private network, its certificate signed by a private CA (decision 0138). */
describe('callUpstream to an HTTPS upstream with a private CA', () => {
  let ca: TestCertificateAuthority;
  let upstream: WebhookReceiver;

  beforeAll(async () => {
    ca = createTestCertificateAuthority();
    upstream = await WebhookReceiver.start(undefined, ca.issue(['localhost', '127.0.0.1']));
  });

  afterAll(async () => {
    trustForOutboundFetch(undefined);
    await upstream?.close();
    ca?.remove();
  });

  const call = () =>
    callUpstream({
      method: 'POST',
      url: `${upstream.url}/v1/run`,
      body: '{}',
      signal: new AbortController().signal,
      timeoutMs: 5000,
      onError: () => new AdapterError(TaskCode.ServiceUnavailable, 'unexpected status'),
    });

  it('fails over (5003) naming the certificate error, nothing sent, until OUTBOUND_TLS_CA trusts it', async () => {
    const refused = await call().catch((error: unknown) => error as AdapterError);
    expect(refused).toBeInstanceOf(AdapterError);
    expect(refused).toMatchObject({ code: TaskCode.ServiceUnavailable });
    expect((refused as AdapterError).message).toMatch(
      /^upstream unreachable \(TLS: certificate not trusted \([A-Z_]+: [^)]+\)\)$/,
    );
    expect(upstream.requests).toHaveLength(0);

    trustForOutboundFetch(trustedCas(ca.pem));
    const answer = await call();
    expect([answer.status, answer.body.toString()]).toEqual([200, 'ok']);
    expect(upstream.requests).toHaveLength(1);
  });
});
