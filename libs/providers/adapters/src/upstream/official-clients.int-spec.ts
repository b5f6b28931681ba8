import { createFalClient } from '@fal-ai/client';
import Replicate from 'replicate';
import { FakeFal, FakeReplicate } from '@genhub/testing';

/**
 * The fake upstreams are only as good as their likeness to the real services
 * (issue 19): the official `@fal-ai/client` and `replicate` npm packages,
 * unmodified, run against them — create, status, result, wait/subscribe,
 * cancel. Our adapters are tested against the same fakes.
 */
describe('the fake upstreams, driven by the official clients', () => {
  describe('fal (@fal-ai/client)', () => {
    let fake: FakeFal;
    let fal: ReturnType<typeof createFalClient>;
    const app = 'fal-ai/flux/dev';

    beforeAll(async () => {
      fake = await FakeFal.start();
      fal = createFalClient({
        credentials: 'fake-key',
        // The client's documented hook for every request: aim it at the fake instead of fal.run.
        requestMiddleware: async (request) => ({
          ...request,
          url: request.url.replace(/^https:\/\/(?:queue\.|rest\.)?fal\.(?:run|ai)/, fake.baseUrl),
        }),
      });
    });
    afterAll(() => fake.close());

    it('submits, reads the status (with its query string), fetches the result', async () => {
      fake.scripts.push({ pendingPolls: 1 });
      const { request_id: requestId } = await fal.queue.submit(app, { input: { prompt: 'a cat' } });
      expect(requestId).toMatch(/^r\d+$/);
      const first = await fal.queue.status(app, { requestId, logs: false });
      expect(first.status).toBe('IN_QUEUE');
      const done = await fal.queue.status(app, { requestId, logs: true });
      expect(done.status).toBe('COMPLETED');
      const result = await fal.queue.result(app, { requestId });
      expect(result.requestId).toBe(requestId);
      expect(result.data).toMatchObject({ images: [{ content_type: 'image/png' }] });
      // The status polls reached the fake with the client's own query strings.
      expect(fake.requests.some((r) => /\/status\?logs=0$/.test(r.path))).toBe(true);
    });

    it('subscribe waits through the queue and returns the result', async () => {
      fake.scripts.push({ pendingPolls: 2 });
      const result = await fal.subscribe(app, {
        input: { prompt: 'a dog' },
        mode: 'polling',
        pollInterval: 20,
      });
      expect(result.data).toMatchObject({ seed: 1 });
    });

    it('cancels a queued request', async () => {
      fake.scripts.push({ pendingPolls: 5 });
      const { request_id: requestId } = await fal.queue.submit(app, { input: { prompt: 'x' } });
      await fal.queue.cancel(app, { requestId });
      expect(fake.cancels).toContain(`/fal-ai/flux/requests/${requestId}/cancel`);
    });
  });

  describe('replicate (replicate)', () => {
    let fake: FakeReplicate;
    let replicate: Replicate;

    beforeAll(async () => {
      fake = await FakeReplicate.start();
      replicate = new Replicate({ auth: 'fake-token', baseUrl: `${fake.baseUrl}/v1` });
    });
    afterAll(() => fake.close());

    it('creates a prediction, gets it, waits for it', async () => {
      fake.scripts.push({ processingPolls: 1 });
      const created = await replicate.predictions.create({
        version: 'v1',
        input: { prompt: 'a cat' },
      });
      expect(created.status).toBe('starting');
      const polled = await replicate.predictions.get(created.id);
      expect(polled.status).toBe('processing');
      const done = await replicate.wait(created, { interval: 20 });
      expect(done.status).toBe('succeeded');
      expect(done.output).toEqual([expect.stringMatching(/\/files\/p\d+\.png$/)]);
    });

    it('runs a model by name to its output', async () => {
      fake.scripts.push({ processingPolls: 1 });
      const output = await replicate.run('owner/model', {
        input: { prompt: 'x' },
        wait: { mode: 'poll', interval: 20 },
      });
      expect(output).toEqual([expect.stringMatching(/\/files\/p\d+\.png$/)]);
    });

    it('cancels a prediction', async () => {
      fake.scripts.push({ processingPolls: 10 });
      const created = await replicate.predictions.create({ version: 'v1', input: {} });
      const canceled = await replicate.predictions.cancel(created.id);
      expect(canceled.status).toBe('canceled');
      expect(fake.cancels).toContain(`/v1/predictions/${created.id}/cancel`);
    });
  });
});
