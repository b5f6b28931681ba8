import type { EntityManager } from 'typeorm';
import { jsonParam, StatementTemplate } from './statement-template';
import { statementsOf } from './typed-statements';

interface Tables {
  't.items': { id: string; qty: number; meta: unknown; note: string | null };
}
const db = statementsOf<Tables>();

/** Answers every query with no rows and keeps what it was sent. */
function recorder() {
  const sent: { name: string; text: string; params: unknown[] }[] = [];
  const manager = {
    query: (config: { name: string; text: string }, params: unknown[]) => {
      sent.push({ ...config, params });
      return Promise.resolve([]);
    },
  } as unknown as EntityManager;
  return { sent, manager };
}

describe('StatementTemplate', () => {
  const template = new StatementTemplate(
    (v: { item: { id: string; qty: number; meta: unknown; note?: string | null } }) =>
      db
        .insertInto('t.items')
        .values({
          id: v.item.id,
          qty: v.item.qty,
          meta: jsonParam(v.item.meta),
          note: v.item.note ?? null,
        })
        .returning('id'),
  );

  it('builds once and fills each call’s values in place of its slots, JSON where asked', async () => {
    const { sent, manager } = recorder();
    await template.run(manager, { item: { id: 'a', qty: 2, meta: { k: [1] } } });
    await template.run(manager, { item: { id: 'b', qty: 3, meta: null, note: 'n' } });
    expect(sent[0].text).toBe(
      'insert into "t"."items" ("id", "qty", "meta", "note") values ($1, $2, $3, $4) returning "id"',
    );
    expect(sent[1].text).toBe(sent[0].text);
    expect(sent[1].name).toBe(sent[0].name);
    expect(sent.map((s) => s.params)).toEqual([
      ['a', 2, '{"k":[1]}', null],
      ['b', 3, null, 'n'],
    ]);
  });

  it('keeps the values fixed at build as they are', async () => {
    const fixed = new StatementTemplate((v: { id: string }) =>
      db.updateTable('t.items').set({ qty: 7 }).where('id', '=', v.id).returning('id'),
    );
    const { sent, manager } = recorder();
    await fixed.run(manager, { id: 'x' });
    expect(sent[0].params).toEqual([7, 'x']);
  });

  it('serialises an ordinary value at once', () => {
    expect(jsonParam({ a: 1 })).toBe('{"a":1}');
    expect(jsonParam(null)).toBeNull();
  });
});
