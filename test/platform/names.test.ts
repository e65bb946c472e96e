import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.ts';
import { candidateList, MAX_CANDIDATES, normalizeLabel, normalizeName, pluralOf, resolveName } from '../../src/core/names.ts';

interface Thing {
  id: string;
  name: string;
}

const priorities: Thing[] = [
  { id: 'p1', name: 'High' },
  { id: 'p2', name: 'Medium' },
  { id: 'p3', name: 'Low' },
];

const byName = { pointer: '/priority', what: 'priority', names: (t: Thing) => [t.name] };

function miss(candidates: readonly Thing[], given: string, options = byName): ApiError {
  try {
    resolveName(candidates, given, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error(`"${given}" matched`);
}

describe('names: case-insensitive, surrounding spaces ignored (spec 2.1)', () => {
  it.each(['Medium', 'medium', 'MEDIUM', '  mEdIuM  ', '\tMedium\n'])('"%s" names Medium', (given) => {
    expect(resolveName(priorities, given, byName)).toBe(priorities[1]);
  });

  it('does not ignore spaces inside a name', () => {
    const types: Thing[] = [{ id: 't1', name: 'Sub task' }];
    expect(() => resolveName(types, 'Subtask', { ...byName, what: 'ticket type' })).toThrow(ApiError);
  });

  it('matches any of the names a thing answers to (a transition by name, id or target status)', () => {
    const transitions = [
      { id: 'a1', name: 'Start', to: 'In Progress' },
      { id: 'b2', name: 'Finish', to: 'Done' },
    ];
    const options = { pointer: '/transition', what: 'transition', names: (t: (typeof transitions)[number]) => [t.name, t.id, t.to] };
    expect(resolveName(transitions, 'done', options)).toBe(transitions[1]);
    expect(resolveName(transitions, 'A1', options)).toBe(transitions[0]);
    expect(resolveName(transitions, ' in progress ', options)).toBe(transitions[0]);
  });

  it('normalizes names and labels the same way everywhere', () => {
    expect(normalizeName("  Won't Do ")).toBe("won't do");
    expect(normalizeLabel('  Needs  Review ')).toBe('needs-review');
    expect(normalizeLabel('backend')).toBe('backend');
  });
});

describe('names: a miss is 422 invalid listing up to 25 candidates, most alike first', () => {
  it('is 422 invalid with the pointer, the name given and the candidates', () => {
    const error = miss(priorities, ' Urgent ');
    expect(error.status).toBe(422);
    expect(error.code).toBe('invalid');
    expect(error.message).toBe('/priority: no priority "Urgent"; priorities are "High", "Medium", "Low"');
  });

  it('lists at most 25 names and says how many more there are', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ id: `c${i}`, name: `Component ${String(i).padStart(2, '0')}` }));
    const error = miss(many, 'Nothing like it', { ...byName, pointer: '/components/0', what: 'component' });
    const listed = error.message.match(/"Component \d\d"/g) ?? [];
    expect(listed).toHaveLength(MAX_CANDIDATES);
    expect(error.message).toContain('(and 15 more)');
  });

  it('puts names that start like the given one first, then names containing it', () => {
    const list = candidateList('API', ['Web', 'Public API', 'Database', 'API Gateway', 'Apis']);
    expect(list).toBe('"API Gateway", "Apis", "Public API", "Web", "Database"');
  });

  it('keeps the most alike even when there are more than 25', () => {
    const names = [...Array.from({ length: 30 }, (_, i) => `Other ${i}`), 'Backend'];
    const list = candidateList('back', names);
    expect(list.startsWith('"Backend"')).toBe(true);
  });

  it('lists each name once and says when there are none', () => {
    expect(candidateList('x', ['Low', 'Low'])).toBe('"Low"');
    expect(candidateList('x', [])).toBe('there are none');
  });

  it.each([
    ['priority', 'priorities'],
    ['status', 'statuses'],
    ['ticket type', 'ticket types'],
    ['person', 'people'],
    ['board column', 'board columns'],
  ])('names the kind in the plural: %s → %s', (what, plural) => {
    expect(pluralOf(what)).toBe(plural);
  });

  it('speaks of people when a person matches nothing', () => {
    const people = [{ id: 'm1', name: 'Ada Admin' }];
    const error = miss(people, 'Bob', { pointer: '/assignee', what: 'person', names: (p: Thing) => [p.name, p.id] });
    expect(error.message).toBe('/assignee: no person "Bob"; people are "Ada Admin"');
  });
});

describe('names: a blank name is refused with 422, never matched nor answered with the candidates', () => {
  it.each(['', ' ', '\t \n'])('"%s" is 422 must not be blank', (given) => {
    const error = miss(priorities, given);
    expect(error.status).toBe(422);
    expect(error.message).toBe('/priority: must not be blank');
  });

  it('even where a candidate has a blank name', () => {
    expect(miss([{ id: 'x', name: ' ' }], ' ').message).toBe('/priority: must not be blank');
  });
});
