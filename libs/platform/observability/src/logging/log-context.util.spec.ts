import { jobLogContext, logContextMixin, withLogContext } from './log-context.util';

describe('log context', () => {
  it('adds the job ids to lines written inside, across awaits, and nothing outside', async () => {
    expect(logContextMixin()).toEqual({});
    const seen = await withLogContext(
      jobLogContext({ taskId: 't-1', requestId: 'r-1' }),
      async () => {
        await new Promise((r) => setTimeout(r, 1));
        return logContextMixin();
      },
    );
    expect(seen).toEqual({ task_id: 't-1', request_id: 'r-1' });
    expect(logContextMixin()).toEqual({});
  });

  it('ignores ids that are not strings', () => {
    expect(jobLogContext({ taskId: 1, requestId: null })).toEqual({
      task_id: undefined,
      request_id: undefined,
    });
  });
});
