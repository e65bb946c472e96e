import { describe, expect, it } from 'vitest';
import { droppedOrder } from '../../src/web/pages/helpdesk/request-types.ts';

// A request type dropped in the list (drag.js) names the form it landed above (`before`) or below
// (`after`); the page turns that into the order reorder_request_types takes, as Move up and Move
// down do.

const KEYS = ['billing', 'outage', 'access', 'other'];

describe('a dropped form takes its place beside the form it landed by', () => {
  it.each([
    [{ before: 'billing' }, 'other', ['other', 'billing', 'outage', 'access']],
    [{ before: 'other' }, 'billing', ['outage', 'access', 'billing', 'other']],
    [{ after: 'access' }, 'billing', ['outage', 'access', 'billing', 'other']],
    [{ after: 'billing' }, 'access', ['billing', 'access', 'outage', 'other']],
    [{}, 'outage', ['billing', 'access', 'other', 'outage']],
    [{ before: 'OUTAGE' }, 'Access', ['billing', 'access', 'outage', 'other']],
  ])('beside %j, %s gives %j', (beside, key, order) => {
    expect(droppedOrder(KEYS, key, beside)).toEqual(order);
  });

  it('gives nothing for a form or a neighbour that is not in the list', () => {
    expect(droppedOrder(KEYS, 'retired', { before: 'billing' })).toBeNull();
    expect(droppedOrder(KEYS, 'billing', { before: 'retired' })).toBeNull();
  });
});
