import { Settlement, SettlementPath, settlementFor } from './settlement.rules';

/** Every path a reservation can be settled on, and what it settles: the money rules in one table. */
const TABLE: [string, SettlementPath, Settlement][] = [
  ['run completed', { path: 'run-ended', status: 'completed' }, 'capture'],
  ['run failed', { path: 'run-ended', status: 'failed' }, 'release'],
  ['deleted while created', { path: 'deleted', from: 'created' }, 'release'],
  ['deleted while processing', { path: 'deleted', from: 'processing' }, 'capture'],
  ['deleted after completing (run captured)', { path: 'deleted', from: 'completed' }, 'none'],
  ['deleted after failing (run released)', { path: 'deleted', from: 'failed' }, 'none'],
  ['deleted twice', { path: 'deleted', from: 'deleted' }, 'none'],
  [
    'recovered: completed, settle job lost',
    { path: 'recovered', status: 'completed', attempt: 1, code: 0 },
    'capture',
  ],
  [
    'recovered: failed, settle job lost',
    { path: 'recovered', status: 'failed', attempt: 1, code: 5003 },
    'release',
  ],
  [
    'recovered: deleted while created',
    { path: 'recovered', status: 'deleted', attempt: 0, code: null },
    'release',
  ],
  [
    'recovered: deleted while processing',
    { path: 'recovered', status: 'deleted', attempt: 2, code: null },
    'capture',
  ],
  [
    'recovered: deleted after a failed run',
    { path: 'recovered', status: 'deleted', attempt: 1, code: 5003 },
    'release',
  ],
  [
    'recovered: deleted after a completed run',
    { path: 'recovered', status: 'deleted', attempt: 1, code: 0 },
    'capture',
  ],
  ['webhook replayed', { path: 'webhook-replayed' }, 'none'],
];

describe('settlement rules', () => {
  it.each(TABLE)('%s', (_name, at, expected) => {
    expect(settlementFor(at)).toBe(expected);
  });
});
