import { StoredTask, type WebhookFormat } from '@genhub/tasks-data-access';
import {
  replicatePredictionOf,
  replicateVersionOf,
  replicateWantsEnding,
  slugOfReplicateVersion,
} from './replicate-prediction.util';
import { startWebhookBodyOf, webhookBodyOf } from './task-views.util';

const BASE = 'https://api.example.com/replicate/v1';

function task(fields: Partial<StoredTask>): StoredTask {
  return Object.assign(new StoredTask(), {
    id: '0f8fad5b-d9cb-469f-a165-70867728950e',
    accountId: 'a',
    model: 'local/simulator/test',
    status: 'completed',
    input: { prompt: 'x' },
    outputs: ['https://cdn.example.com/o.png'],
    error: null,
    code: 0,
    timings: {
      queue_wait: 1,
      worker_init: 1,
      api_call: 1500,
      save: 1,
      run_overhead: 1,
      total: 2000,
    },
    createdAt: new Date('2026-11-27T10:00:00Z'),
    startedAt: new Date('2026-11-27T10:00:01Z'),
    finishedAt: new Date('2026-11-27T10:00:03Z'),
    webhookUrl: null,
    webhookFormat: null,
    ...fields,
  });
}

describe('the Replicate view of a task', () => {
  it('names a slug by a version id the client’s owner/name:version parser takes whole', () => {
    const version = replicateVersionOf('local/video/text-to-video');
    expect(version).toBe('local~video~text-to-video');
    // The client's own pattern (lib/identifier.js).
    const match = `local/video:${version}`.match(
      /^(?<owner>[^/]+)\/(?<name>[^/:]+)(:(?<version>.+))?$/,
    );
    expect(match?.groups?.version).toBe(version);
    expect(slugOfReplicateVersion(version)).toBe('local/video/text-to-video');
    for (const bad of ['0123abcd', 'a~b', 'a~b~c~d', 'a~b/c~d', 'a~~c'])
      expect(slugOfReplicateVersion(bad)).toBeUndefined();
  });

  it('maps the statuses, and shows output and metrics only once succeeded', () => {
    const statuses = (['created', 'processing', 'completed', 'failed', 'deleted'] as const).map(
      (status) => replicatePredictionOf(task({ status }), BASE).status,
    );
    expect(statuses).toEqual(['starting', 'processing', 'succeeded', 'failed', 'canceled']);
    expect(replicatePredictionOf(task({}), BASE)).toMatchObject({
      model: 'local/simulator',
      version: 'local~simulator~test',
      output: ['https://cdn.example.com/o.png'],
      metrics: { predict_time: 1.5, total_time: 2 },
      urls: {
        get: `${BASE}/predictions/0f8fad5b-d9cb-469f-a165-70867728950e`,
        cancel: `${BASE}/predictions/0f8fad5b-d9cb-469f-a165-70867728950e/cancel`,
      },
      completed_at: '2026-11-27T10:00:03.000Z',
    });
    const failed = replicatePredictionOf(task({ status: 'failed', error: 'boom' }), BASE);
    expect([failed.output, failed.error, failed.metrics]).toEqual([null, 'boom', {}]);
    const open = replicatePredictionOf(task({ status: 'processing', finishedAt: null }), BASE);
    expect([open.output, open.completed_at]).toEqual([null, null]);
  });

  it('sends a webhook only for the events asked for', () => {
    const format = (events: WebhookFormat['events']): WebhookFormat => ({
      kind: 'replicate',
      base_url: BASE,
      events,
    });
    expect(replicateWantsEnding(format(['completed']), 'failed')).toBe(true);
    expect(replicateWantsEnding(format(['output']), 'completed')).toBe(true);
    expect(replicateWantsEnding(format(['output']), 'failed')).toBe(false);
    expect(replicateWantsEnding(format(['start', 'logs']), 'completed')).toBe(false);
    const body = webhookBodyOf(task({ webhookFormat: format(['completed']) }));
    expect(JSON.parse(body as string)).toMatchObject({
      status: 'succeeded',
      input: { prompt: 'x' },
    });
    expect(webhookBodyOf(task({ webhookFormat: format(['start']) }))).toBeUndefined();
    // genhub's own payload when the task has no format.
    expect(JSON.parse(webhookBodyOf(task({})) as string)).toMatchObject({ status: 'completed' });
  });

  it('writes the start event of a claimed task only when its filter asks for it', () => {
    const format = (events: WebhookFormat['events']): WebhookFormat => ({
      kind: 'replicate',
      base_url: BASE,
      events,
    });
    const claimed = (fields: Partial<StoredTask>) =>
      task({
        status: 'processing',
        outputs: null,
        timings: null,
        webhookUrl: 'https://example.com/hook',
        ...fields,
      });
    expect(JSON.parse(startWebhookBodyOf(claimed({ webhookFormat: format(['start']) }))!)).toEqual(
      expect.objectContaining({
        status: 'processing',
        output: null,
        error: null,
        started_at: '2026-11-27T10:00:01.000Z',
        completed_at: null,
        urls: expect.objectContaining({ get: `${BASE}/predictions/${claimed({}).id}` }),
      }),
    );
    expect(startWebhookBodyOf(claimed({ webhookFormat: format(['completed', 'logs']) }))).toBe(
      undefined,
    );
    expect(startWebhookBodyOf(claimed({ webhookFormat: null }))).toBeUndefined();
    expect(
      startWebhookBodyOf(claimed({ webhookFormat: format(['start']), webhookUrl: null })),
    ).toBeUndefined();
  });
});
