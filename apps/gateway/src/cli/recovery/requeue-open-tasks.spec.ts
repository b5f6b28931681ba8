import { lostSettlement } from './requeue-open-tasks';

describe('lostSettlement', () => {
  it('settles a finished task as its run decided', () => {
    expect(lostSettlement({ status: 'completed', attempt: 1, code: 0 })).toBe('capture');
    expect(lostSettlement({ status: 'failed', attempt: 1, code: 5003 })).toBe('release');
  });

  it('settles a deleted task as its deletion decided', () => {
    // Deleted while created: released.
    expect(lostSettlement({ status: 'deleted', attempt: 0, code: null })).toBe('release');
    // Deleted while processing: captured.
    expect(lostSettlement({ status: 'deleted', attempt: 2, code: null })).toBe('capture');
    // Deleted after a run that failed (its release job lost): released.
    expect(lostSettlement({ status: 'deleted', attempt: 1, code: 5003 })).toBe('release');
    // Deleted after a run that completed (its capture job lost): captured.
    expect(lostSettlement({ status: 'deleted', attempt: 1, code: 0 })).toBe('capture');
  });
});
