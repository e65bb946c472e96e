import { describe, expect, it } from 'vitest';
import { rankAfter, rerank } from '../../src/core/rank.ts';
import { permissionsForFormChange, type FormChange } from '../../src/modules/helpdesk/policy.ts';

const FORMS = ['helpdesk:forms'];
const PUBLISH = ['helpdesk:forms', 'helpdesk:publish'];

describe('5.6 request types: the permissions each change needs (policy table)', () => {
  it.each<[string, FormChange, string[]]>([
    ['create an authenticated form', { kind: 'create', submission: 'authenticated' }, FORMS],
    ['create an open form', { kind: 'create', submission: 'open' }, PUBLISH],
    ['change an authenticated form', { kind: 'update', before: 'authenticated', after: 'authenticated', changed: ['name'] }, FORMS],
    ['make a form open', { kind: 'update', before: 'authenticated', after: 'open', changed: ['submission'] }, PUBLISH],
    ['change an open form', { kind: 'update', before: 'open', after: 'open', changed: ['help_text'] }, PUBLISH],
    ['take a form off the public', { kind: 'update', before: 'open', after: 'authenticated', changed: ['submission'] }, FORMS],
    [
      'take a form off the public and rename it',
      { kind: 'update', before: 'open', after: 'authenticated', changed: ['submission', 'name'] },
      PUBLISH,
    ],
    ['send an open form unchanged', { kind: 'update', before: 'open', after: 'open', changed: [] }, FORMS],
    ['retire any form', { kind: 'retire' }, FORMS],
    ['reorder without moving an open form', { kind: 'order', movesOpenForm: false }, FORMS],
    ['reorder moving an open form', { kind: 'order', movesOpenForm: true }, PUBLISH],
  ])('%s needs %j', (_, change, needs) => {
    expect(permissionsForFormChange(change)).toEqual(needs);
  });
});

describe('rank: a reorder rewrites only the forms that move', () => {
  const a = rankAfter([]);
  const b = rankAfter([a]);
  const c = rankAfter([a, b]);
  const d = rankAfter([a, b, c]);

  it('keeps every key when the order is unchanged', () => {
    expect(
      rerank([
        { id: 'a', rank: a },
        { id: 'b', rank: b },
        { id: 'c', rank: c },
      ]).size,
    ).toBe(0);
  });

  it('moves one item to the front with one new key that sorts first', () => {
    const changed = rerank([
      { id: 'd', rank: d },
      { id: 'a', rank: a },
      { id: 'b', rank: b },
      { id: 'c', rank: c },
    ]);
    expect([...changed.keys()]).toEqual(['d']);
    expect(changed.get('d')! < a).toBe(true);
  });

  it('gives any order keys that sort in that order', () => {
    const order = [
      { id: 'c', rank: c },
      { id: 'a', rank: a },
      { id: 'd', rank: d },
      { id: 'b', rank: b },
    ];
    const changed = rerank(order);
    const ranks = order.map((item) => changed.get(item.id) ?? item.rank);
    expect([...ranks].sort()).toEqual(ranks);
    expect(changed.size).toBe(2);
  });
});
