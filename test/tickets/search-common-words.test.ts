import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';
import { FIXTURES, startTestService, type TestService } from '../helpers/service.ts';
import { matchesAreCommon, type WordFrequencies } from '../../src/modules/tickets/word-frequencies.ts';

// Enough tickets holding "harbour" that, once the table is analyzed, search takes its candidates
// from the tickets' own rows rather than from the search index (word-frequencies.ts): the
// statistics then name the word common, and the answers must be those of any other search.
const PER_PROJECT = 800;
const HIDDEN = 40;
// Small projects beside them, so that a member's scope is a list of many projects, as in a real
// workspace: the plan made for such a list differs from the generic plan unless the list is opaque.
const SMALL_PROJECTS = 20;
const PER_SMALL_PROJECT = 40;

let service: TestService;
const tokens: Record<string, string> = {};
const hiddenKeys = new Set<string>();
const RARE_KEY = `TIX-${PER_PROJECT + 100}`;

/**
 * The tickets tests' workspace with 800 more tickets in each of its projects, 40 of them at a level
 * dev2 is not granted, and 20 small projects like OTHER.
 */
async function harbourWorkspace(): Promise<string> {
  const workspace = parse(await readFile(new URL('tickets-workspace.yaml', FIXTURES), 'utf8')) as {
    projects: { key: string; name: string; tickets: object[] }[];
  };
  for (const project of workspace.projects) {
    for (let i = 0; i < PER_PROJECT; i += 1) {
      const number = 100 + i;
      const hidden = project.key === 'TIX' && i < HIDDEN;
      if (hidden) hiddenKeys.add(`TIX-${number}`);
      project.tickets.push({
        number,
        summary: hidden ? `Harbour crane secret ${i}` : `Harbour crane ${i}`,
        reporter: 'lee@example.com',
        ...(hidden ? { security_level: 'Staff only' } : {}),
      });
    }
  }
  workspace.projects
    .find((p) => p.key === 'TIX')!
    .tickets.push({ number: PER_PROJECT + 100, summary: 'Harbour crane with a zeppelin mooring', reporter: 'lee@example.com' });
  const other = workspace.projects.find((p) => p.key === 'OTHER')!;
  for (let n = 1; n <= SMALL_PROJECTS; n += 1) {
    const tickets = Array.from({ length: PER_SMALL_PROJECT }, (_, i) => ({
      number: i + 1,
      summary: `Harbour crane ${i}`,
      reporter: 'lee@example.com',
    }));
    workspace.projects.push({ ...other, key: `H${n}`, name: `Harbour ${n}`, tickets });
  }
  return stringify(workspace);
}

beforeAll(async () => {
  service = await startTestService({ workspace: await harbourWorkspace() });
  for (const who of ['lee', 'dev2']) tokens[who] = await service.token(`${who}@example.com`);
  // What autovacuum (PostgreSQL) or the server's upkeep (PGlite) does within a minute of a load like this one.
  await sql`analyze tickets`.execute(service.db);
}, 120_000);
afterAll(() => service.close());

const search = async (query: string, who = 'dev2') => {
  const reply = await service.request('GET', `/api/v1/tickets?${query}&limit=100`, { token: tokens[who] });
  expect(reply.status, reply.text).toBe(200);
  return reply.body as { total: number; tickets: { key: string; summary: string }[] };
};

describe('search: a word most tickets hold finds them like any other word', () => {
  it('caps a project’s matches at 250 candidates, all from that project and all holding the word', async () => {
    const found = await search('query=harb&project=TIX');
    expect(found.total).toBe(250);
    expect(found.tickets).toHaveLength(100);
    for (const ticket of found.tickets) {
      expect(ticket.key).toMatch(/^TIX-/);
      expect(ticket.summary).toMatch(/^Harbour crane/);
    }
  });

  it('never counts or shows a ticket of a security level the member is not granted', async () => {
    for (const query of ['query=harb&project=TIX', 'query=harbour%20crane', 'query=crane&project=TIX&sort=key']) {
      const keys = [];
      for (let offset = 0; offset < 250; offset += 100) {
        keys.push(
          ...(await service.request('GET', `/api/v1/tickets?${query}&limit=100&offset=${offset}`, { token: tokens.dev2 })).body.tickets.map(
            (t: { key: string }) => t.key,
          ),
        );
      }
      expect(keys).toHaveLength(250);
      expect(new Set(keys).size).toBe(250);
      expect(keys.filter((key) => hiddenKeys.has(key))).toEqual([]);
    }
    expect((await search('query=harbour%20secret&project=TIX', 'lee')).total).toBe(HIDDEN);
    expect((await search('query=harbour%20secret&project=TIX')).total).toBe(0);
  });

  it('keeps every other filter', async () => {
    const other = await search('query=crane%20harbour&project=OTHER');
    expect(other.total).toBe(250);
    expect(other.tickets.every((t) => t.key.startsWith('OTHER-'))).toBe(true);
    const unassigned = await search('query=harb&assignee=unassigned&status=open');
    expect(unassigned.total).toBe(250);
    expect((await search('query=harb&status=done')).total).toBe(0);
  });

  it('finds the one ticket that also holds a rare word, and none for a word no ticket holds', async () => {
    expect((await search('query=harbour%20zeppelin&project=TIX')).tickets.map((t) => t.key)).toEqual([RARE_KEY]);
    expect((await search('query=harbour%20quetzal&project=TIX')).total).toBe(0);
  });
});

describe('search: a common word is planned once per connection, not on every request', () => {
  // Only a prepared statement's generic plan is counted in generic_plans; a statement planned for
  // its values on every run counts a custom plan each time. Ten reads at once take every
  // connection of the pool (PGlite has one), so each connection's count is seen.
  const plans = async () => {
    const reads = await Promise.all(
      Array.from({ length: 10 }, () =>
        sql<{ pid: number; generic: number; custom: number }>`
          select pg_backend_pid() as pid, coalesce(sum(generic_plans), 0)::int as generic, coalesce(sum(custom_plans), 0)::int as custom
          from pg_prepared_statements where statement like '%ts\\_match\\_vq%'`.execute(service.db),
      ),
    );
    const byConnection = new Map(reads.map((read) => [read.rows[0]!.pid, read.rows[0]!]));
    return [...byConnection.values()].reduce((sum, p) => ({ generic: sum.generic + p.generic, custom: sum.custom + p.custom }), {
      generic: 0,
      custom: 0,
    });
  };

  for (const query of [
    'query=harb',
    'query=harb&project=TIX',
    'query=crane&project=TIX&assignee=unassigned&status=open',
    'query=harb&type=task',
  ]) {
    it(`keeps the generic plan of ${query}`, async () => {
      const before = await plans();
      for (let i = 0; i < 12; i += 1) expect((await search(query)).total).toBe(250);
      const after = await plans();
      // PostgreSQL makes five plans for the values on a connection before it weighs the generic one.
      expect(after.generic - before.generic).toBeGreaterThan(0);
      expect(after.custom - before.custom).toBeLessThan(12);
    });
  }
});

describe('search: a word counts as common when reading tickets finds 250 candidates sooner than the search index', () => {
  // The bench's workspace, as its statistics read: "payment" in half of 100,000 tickets.
  const bench: WordFrequencies = {
    lexemes: ['bench', 'customer', 'p17', 'payment'],
    shares: [0.0286, 0.53, 0.0466, 0.483],
    tickets: 100_000,
  };

  it('takes a word in half the tickets, and each of its beginnings, as common', () => {
    expect(matchesAreCommon(bench, ['payment'], 250)).toBe(true);
    expect(matchesAreCommon(bench, ['pay'], 250)).toBe(true);
    expect(matchesAreCommon(bench, ['pay', 'customer'], 250)).toBe(true);
  });

  it('leaves a word in one ticket of twenty to the index, alone or beside a common one', () => {
    expect(matchesAreCommon(bench, ['p17'], 250)).toBe(false);
    expect(matchesAreCommon(bench, ['payment', 'bench'], 250)).toBe(false);
  });

  it('leaves to the index a word the statistics do not name, and every word when there are none', () => {
    expect(matchesAreCommon(bench, ['payment', 'zeppelin'], 250)).toBe(false);
    expect(matchesAreCommon(bench, ['zzz'], 250)).toBe(false);
    expect(matchesAreCommon({ lexemes: [], shares: [], tickets: 0 }, ['payment'], 250)).toBe(false);
  });

  it('needs more tickets holding a word the fewer tickets there are', () => {
    expect(matchesAreCommon({ ...bench, tickets: 1_000 }, ['payment'], 250)).toBe(false);
  });
});
