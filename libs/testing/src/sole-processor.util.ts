import type { DynamicModule } from '@nestjs/common';
import { JobName, jobsOf, QUEUE_CONSUMER, QueueName } from '@genhub/queue';

/** @nestjs/bullmq's @Processor() metadata key. */
const PROCESSOR_METADATA = 'bullmq:processor_metadata';

interface ProcessorClass {
  name: string;
  JOBS?: readonly JobName[];
}

/**
 * What an app's root module consumes: the @Processor classes among its
 * providers, with their queue and the job names they say they handle.
 */
export function processorsOf(
  module: DynamicModule,
): { queue: string; jobs: JobName[]; name: string }[] {
  return (module.providers ?? [])
    .filter(
      (p): p is ProcessorClass & (new (...args: never[]) => unknown) => typeof p === 'function',
    )
    .flatMap((cls) => {
      const meta = Reflect.getMetadata(PROCESSOR_METADATA, cls) as { name?: string } | undefined;
      return meta?.name ? [{ queue: meta.name, jobs: [...(cls.JOBS ?? [])], name: cls.name }] : [];
    });
}

/** The queue an app is the consumer of (QUEUE_CONSUMER), and the jobs routed to it. */
export function queueOf(app: string): { queue: QueueName; jobs: JobName[] } {
  const queue = (Object.keys(QUEUE_CONSUMER) as QueueName[]).find((q) => QUEUE_CONSUMER[q] === app);
  if (!queue) throw new Error(`${app} consumes no queue`);
  return { queue, jobs: jobsOf(queue) };
}

/** Asserts the app has exactly one processor, on its own queue, handling every job routed there. */
export function expectSoleProcessor(module: DynamicModule, app: string): void {
  const processors = processorsOf(module);
  const { queue, jobs } = queueOf(app);
  expect(processors).toHaveLength(1);
  expect(processors[0].queue).toBe(queue);
  expect([...processors[0].jobs].sort()).toEqual([...jobs].sort());
}
