import { isTerminal } from '@genhub/tasks-data-access';
import { allowedSources, canTransition, OPEN_STATUSES } from './task-lifecycle.rules';

describe('task lifecycle', () => {
  it('knows terminal states', () => {
    expect(isTerminal('completed')).toBe(true);
    expect(isTerminal('failed')).toBe(true);
    expect(isTerminal('created')).toBe(false);
    expect(isTerminal('processing')).toBe(false);
    expect(isTerminal('deleted')).toBe(false);
  });

  it('never leaves a terminal state except by deletion', () => {
    for (const to of ['created', 'processing', 'completed', 'failed'] as const) {
      expect(canTransition('completed', to)).toBe(false);
      expect(canTransition('failed', to)).toBe(false);
    }
    expect(canTransition('completed', 'deleted')).toBe(true);
    expect(canTransition('deleted', 'created')).toBe(false);
  });

  it('derives the sources of each conditional update', () => {
    expect(allowedSources('processing')).toEqual(['created', 'processing']);
    // Only a claimed run completes a task; the sweeper may fail one still created.
    expect(allowedSources('completed')).toEqual(['processing']);
    expect(allowedSources('failed')).toEqual(['created', 'processing']);
    expect(allowedSources('deleted')).toEqual(['created', 'processing', 'completed', 'failed']);
    expect(allowedSources('created')).toEqual([]);
  });

  it('agrees with the contracts’ open set: what a run or the sweeper may still end', () => {
    expect(OPEN_STATUSES).toEqual(['created', 'processing']);
    expect(allowedSources('failed')).toEqual(OPEN_STATUSES);
  });
});
