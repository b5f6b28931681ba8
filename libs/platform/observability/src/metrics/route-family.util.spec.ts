import { routeFamily } from './route-family.util';

describe('routeFamily', () => {
  it.each([
    ['/v1/:provider_id/:model_id/:run_type', 'submit'],
    ['/api/v3/:provider_id/:model_id/:run_type', 'submit'],
    ['/api/v3/predictions/:task_id/result', 'result'],
    ['/api/v3/media/uploads', 'upload'],
    ['/v1/requests/:request_id', 'result'],
    ['/v1/balance', 'balance'],
    ['/api/v3/billings', 'billings'],
    ['/api/v3/billings/export', 'billings'],
    ['/api/v3/usage', 'billings'],
    ['/api/v3/files/upload', 'upload'],
    ['/cdn/*', 'cdn'],
    ['/v1/chat/completions', 'chat'],
    ['/v1/models/*', 'chat'],
    ['/admin/v1/accounts/:id', 'admin'],
    ['/admin/queues/api/queues', 'admin'],
    ['/api/v3/predictions/:task_id/webhook-deliveries', 'webhooks'],
    ['/api/v3/predictions/:task_id', 'delete'],
    ['/api/v3/predictions', 'history'],
    ['/api/v3/predictions/:task_id/events', 'events'],
    ['/api/v3/predictions/:task_id/events/token', 'events'],
    ['/metrics', 'probe'],
    ['/console/*', 'console'],
    ['/console', 'console'],
    ['/somewhere', 'other'],
    [undefined, 'other'],
  ])('%s → %s', (pattern, family) => {
    expect(routeFamily(pattern)).toBe(family);
  });
});
