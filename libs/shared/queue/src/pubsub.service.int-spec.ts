import { randomUUID } from 'node:crypto';
import { loadConfig, RedisConfig } from '@genhub/config';
import { PubSubService, UNHEARD_SKIP_MS } from './pubsub.service';
import { PubSubChannel } from './queue.constants';

/** Notices only listeners need, on the real Redis (a prefix of its own: channels only, no keys). */
describe('PubSubService.publishToListeners (Redis)', () => {
  const config = loadConfig(RedisConfig, {
    REDIS_URL: process.env.REDIS_URL as string,
    QUEUE_PREFIX: `pubsub-test-${randomUUID().slice(0, 8)}`,
  });
  const publisher = new PubSubService(config);
  const subscriber = new PubSubService(config);
  let clock = 0;
  publisher.now = () => clock;
  afterAll(() =>
    Promise.all([publisher.onApplicationShutdown(), subscriber.onApplicationShutdown()]),
  );

  /** What the subscriber heard once Redis has answered a publish made after the others. */
  async function heardAfter(received: string[]): Promise<string[]> {
    await publisher.publish(PubSubChannel.TaskStatus, 'fence');
    for (let i = 0; i < 100 && !received.includes('fence'); i++)
      await new Promise((r) => setTimeout(r, 10));
    return received.filter((m) => m !== 'fence');
  }

  it('skips a channel nobody heard for a while, probes again, and sends all once heard', async () => {
    expect(await publisher.publish(PubSubChannel.TaskStatus, 'nobody')).toBe(0);
    const received: string[] = [];
    const unsubscribe = await subscriber.subscribe(PubSubChannel.TaskStatus, (m) =>
      received.push(m),
    );
    // The last publish reached nobody: within UNHEARD_SKIP_MS nothing is sent, even to a newcomer.
    clock += UNHEARD_SKIP_MS - 1;
    await publisher.publishToListeners(PubSubChannel.TaskStatus, 'skipped');
    // Then one probe goes out, is heard, and every notice after it is sent.
    clock += 1;
    await publisher.publishToListeners(PubSubChannel.TaskStatus, 'probe');
    await publisher.publishToListeners(PubSubChannel.TaskStatus, 'sent');
    expect(await heardAfter(received)).toEqual(['probe', 'sent']);
    unsubscribe();
  });

  it('keeps channels apart: an unheard channel does not silence another', async () => {
    await publisher.publish(PubSubChannel.FairWork, ''); // nobody listens
    const received: string[] = [];
    const unsubscribe = await subscriber.subscribe(PubSubChannel.TaskStatus, (m) =>
      received.push(m),
    );
    await publisher.publishToListeners(PubSubChannel.TaskStatus, 'heard');
    expect(await heardAfter(received)).toEqual(['heard']);
    unsubscribe();
  });
});
