import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { ChangeEvent } from '../../src/notifications/live-events.ts';
import type { Database } from '../../src/storage/database.ts';
import { openAnotherNode, postgresServerUrl } from '../helpers/database.ts';
import { startTestService, type Reply, type TestService } from '../helpers/service.ts';

// Several nodes on one database, directly or through a pooler in transaction mode (the CI's
// pooled pass sets ATRIUM_TEST_POOLER_URL): every operation of the spec's list answers as on one
// node, each request sent to the other node than the one before, so every change is read back
// where it was not made. On PGlite, one process by design, both "nodes" are the same one.

const OPERATIONS = JSON.parse(fs.readFileSync(new URL('../fixtures/shared/spec/operations.json', import.meta.url), 'utf8')) as {
  operations: { method: string; path: string }[];
};

let first: TestService;
let second: FastifyInstance;
let secondDatabase: Database | null = null;
let admin: string;
let diego: string;

beforeAll(async () => {
  // one token makes every request: the per-token limit is not what is tested here
  first = await startTestService({ workspace: '../../examples/demo-workspace.yaml', rateLimit: 100_000 });
  if (postgresServerUrl() !== null) {
    secondDatabase = await openAnotherNode(first.db);
    second = await buildApp({
      config: { publicUrl: first.publicUrl, logLevel: 'silent' },
      database: secondDatabase,
      rateLimit: 100_000,
    });
    await second.ready();
  } else {
    second = first.app;
  }
  admin = await first.token('admin@example.com', 'write', 'every operation');
  diego = await first.token('diego@example.com', 'write', 'every operation, the CRM');
});
afterAll(async () => {
  if (secondDatabase) {
    await second.close();
    await secondDatabase.close();
  }
  await first?.close();
});

const nodes = () => [first.app, second];
let sent = 0;
const called = new Set<string>();

/** One request to the node after the last one's, as `token`; `operation` is the spec's `METHOD /path`. */
async function call(
  operation: string,
  path: string,
  options: { token?: string; body?: unknown; expect?: number } = {},
): Promise<Omit<Reply, 'headers'>> {
  const app = nodes()[sent++ % 2]!;
  const [method] = operation.split(' ');
  const response = await app.inject({
    method: method as 'GET',
    url: `/api/v1${path}`,
    headers: {
      authorization: `Bearer ${options.token ?? admin}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
  });
  called.add(operation);
  const reply = {
    status: response.statusCode,
    text: response.body,
    body: response.body ? JSON.parse(response.body) : undefined,
  };
  expect(reply.status, `${operation} (${path}): ${reply.text.slice(0, 400)}`).toBe(options.expect ?? (method === 'POST' ? 201 : 200));
  return reply;
}

describe('every operation of the spec answers on two nodes sharing one database, each change read on the other', () => {
  it('answers each in turn, the two nodes taking turns', async () => {
    await call('GET /me', '/me');
    await call('GET /projects', '/projects');
    await call('GET /projects/{key}', '/projects/HELP');

    // helpdesk
    await call('GET /projects/{key}/request-types', '/projects/HELP/request-types');
    await call('POST /projects/{key}/request-types', '/projects/HELP/request-types', {
      body: { key: 'access-request', name: 'Ask for access', ticket_type: 'Question' },
    });
    await call('GET /projects/{key}/request-types/{request_type}', '/projects/HELP/request-types/access-request');
    await call('PATCH /projects/{key}/request-types/{request_type}', '/projects/HELP/request-types/access-request', {
      body: { name: 'Ask for an account' },
    });
    const types = (await call('GET /projects/{key}/request-types', '/projects/HELP/request-types')).body.request_types as { key: string }[];
    await call('POST /projects/{key}/request-types/order', '/projects/HELP/request-types/order', {
      body: { order: types.map((type) => type.key).reverse() },
      expect: 200,
    });
    await call('DELETE /projects/{key}/request-types/{request_type}', '/projects/HELP/request-types/access-request');

    // tickets
    const created = (
      await call('POST /tickets', '/tickets', {
        body: { project: 'ATR', summary: 'Made on one node', labels: ['two-nodes'] },
      })
    ).body;
    const key = created.key as string;
    await call('GET /tickets/{key}', `/tickets/${key}`);
    await call('GET /tickets', '/tickets?label=two-nodes');
    await call('PATCH /tickets/{key}', `/tickets/${key}`, { body: { summary: 'Changed on the other' } });
    await call('POST /tickets/{key}/comments', `/tickets/${key}/comments`, { body: { body: 'A comment' } });
    await call('POST /tickets/{key}/worklogs', `/tickets/${key}/worklogs`, { body: { time_spent: '1h' } });
    await call('PUT /tickets/{key}/assignee', `/tickets/${key}/assignee`, { body: { assignee: 'marco@example.com' } });
    const transitions = (await call('GET /tickets/{key}/transitions', `/tickets/${key}/transitions`)).body.transitions as {
      name: string;
    }[];
    await call('POST /tickets/{key}/transitions', `/tickets/${key}/transitions`, {
      body: { transition: transitions[0]!.name },
      expect: 200,
    });
    expect((await call('GET /tickets/{key}', `/tickets/${key}`)).body.summary).toBe('Changed on the other');

    // boards and sprints
    await call('GET /boards', '/boards');
    await call('GET /boards/{number}', '/boards/1');
    await call('GET /boards/{number}/backlog', '/boards/1/backlog');
    await call('GET /boards/{number}/sprints', '/boards/1/sprints');
    await call('POST /boards/{number}/sprints', '/boards/1/sprints', {
      body: { name: 'Sprint 16', goal: 'Pooled', start_date: '2026-12-01', end_date: '2026-12-14' },
    });
    await call('PATCH /boards/{number}/sprints/{sprint}', `/boards/1/sprints/${encodeURIComponent('Sprint 16')}`, {
      body: { goal: 'Across nodes' },
    });
    await call('POST /boards/{number}/backlog/moves', '/boards/1/backlog/moves', {
      body: { key, sprint: 'Sprint 16' },
      expect: 200,
    });
    await call('POST /boards/{number}/moves', '/boards/1/moves', {
      body: { key: 'ATR-2', column: 'In Review' },
      expect: 200,
    });
    await call('POST /boards/{number}/sprints/{sprint}/complete', `/boards/1/sprints/${encodeURIComponent('Sprint 14')}/complete`, {
      body: {},
      expect: 200,
    });
    await call('POST /boards/{number}/sprints/{sprint}/start', `/boards/1/sprints/${encodeURIComponent('Sprint 16')}/start`, {
      body: {},
      expect: 200,
    });
    await call('DELETE /boards/{number}/sprints/{sprint}', `/boards/1/sprints/${encodeURIComponent('Sprint 15')}`);

    // knowledge
    await call('GET /knowledge/spaces', '/knowledge/spaces');
    await call('GET /knowledge/spaces/{space}/tree', '/knowledge/spaces/ENG/tree');
    await call('GET /knowledge/spaces/{space}/pages/{page}', '/knowledge/spaces/ENG/pages/welcome');
    await call('GET /knowledge/search', '/knowledge/search?query=onboarding');
    const page = (
      await call('POST /knowledge/spaces/{space}/pages', '/knowledge/spaces/ENG/pages', {
        body: { title: 'Pooled notes', body: 'Written on one node.' },
      })
    ).body;
    const slug = page.slug as string;
    await call('PATCH /knowledge/spaces/{space}/pages/{page}', `/knowledge/spaces/ENG/pages/${slug}`, {
      body: { body: 'Changed on the other.', version: page.version },
    });
    await call('POST /knowledge/spaces/{space}/pages/{page}/move', `/knowledge/spaces/ENG/pages/${slug}/move`, {
      body: { parent: 'architecture' },
      expect: 200,
    });
    await call('DELETE /knowledge/spaces/{space}/pages/{page}', `/knowledge/spaces/ENG/pages/${slug}`);

    // time
    await call('GET /organizations', '/organizations');
    await call('GET /phases', '/phases');
    const activity = (
      await call('POST /activities', '/activities', {
        body: {
          description: 'Pairing across nodes',
          start: '2026-11-20T09:00',
          duration: '1h',
          timezone: 'Europe/Amsterdam',
          project: 'ATR',
        },
      })
    ).body;
    await call('GET /activities/{id}', `/activities/${activity.id}`);
    await call('PATCH /activities/{id}', `/activities/${activity.id}`, {
      body: { description: 'Pairing, changed elsewhere' },
    });
    await call('GET /activities', '/activities?project=ATR');
    const running = (await call('POST /activities', '/activities', { body: { description: 'Running on one node', project: 'ATR' } })).body;
    await call('POST /activities/{id}/stop', `/activities/${running.id}/stop`, { body: {}, expect: 200 });
    await call('DELETE /activities/{id}', `/activities/${activity.id}`);
    await call('GET /reports/hours', '/reports/hours?from=2026-11-01&to=2026-11-30&group_by=project');

    // CRM
    await call('GET /contacts', '/contacts', { token: diego });
    const contact = (await call('POST /contacts', '/contacts', { token: diego, body: { name: 'Pia Pooled', company: 'Acme GmbH' } })).body;
    await call('GET /contacts/{id}', `/contacts/${contact.id}`, { token: diego });
    await call('PATCH /contacts/{id}', `/contacts/${contact.id}`, { token: diego, body: { job_title: 'Operator' } });
    await call('POST /contacts/{id}/emails', `/contacts/${contact.id}/emails`, {
      token: diego,
      body: { address: 'pia@acme.example' },
    });
    await call('POST /contacts/{id}/phones', `/contacts/${contact.id}/phones`, {
      token: diego,
      body: { number: '+49 711 555 0199' },
    });
    const companies = (await call('GET /companies', '/companies?q=Acme', { token: diego })).body;
    const company = companies.companies[0].id as string;
    await call('GET /companies/{id}', `/companies/${company}`, { token: diego });
    await call('PATCH /companies/{id}', `/companies/${company}`, { token: diego, body: { industry: 'Machinery' } });
    const task = (
      await call('POST /interactions', '/interactions', {
        token: diego,
        body: {
          kind: 'task',
          subject: 'Call back across nodes',
          contact: contact.id,
          due_at: '2026-12-20T09:00:00Z',
          assignee: 'Diego Álvarez',
        },
      })
    ).body;
    await call('GET /interactions', `/interactions?contact=${contact.id}`, { token: diego });
    await call('GET /follow-ups', '/follow-ups', { token: diego });
    await call('POST /interactions/{id}/complete', `/interactions/${task.id}/complete`, { token: diego, expect: 200 });

    const missing = OPERATIONS.operations.map((o) => `${o.method} ${o.path}`).filter((operation) => !called.has(operation));
    expect(missing).toEqual([]);
  });
});

describe('reads and comments eight at a time, across two nodes, all answer', () => {
  // each runs `count` requests, `atOnce` in flight, spread over both nodes
  async function burst(count: number, atOnce: number, request: (app: FastifyInstance, i: number) => Promise<number>): Promise<number[]> {
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: atOnce }, async () => {
        while (next < count) {
          const i = next++;
          statuses.push(await request(nodes()[i % 2]!, i));
        }
      }),
    );
    return statuses;
  }

  it('answers 400 reads of one ticket and 200 comments on it, none failing', async () => {
    const headers = { authorization: `Bearer ${admin}` };
    const reads = await burst(
      400,
      8,
      async (app) => (await app.inject({ method: 'GET', url: '/api/v1/tickets/ATR-3', headers })).statusCode,
    );
    expect(reads.filter((status) => status !== 200)).toEqual([]);
    const comments = await burst(
      200,
      8,
      async (app, i) =>
        (
          await app.inject({
            method: 'POST',
            url: '/api/v1/tickets/ATR-3/comments',
            headers,
            payload: { body: `Comment ${i}` },
          })
        ).statusCode,
    );
    expect(comments.filter((status) => status !== 201)).toEqual([]);
  });
});

describe('a change made on one node is heard by the open pages of the other', () => {
  /** The events `app` hears while `act` runs, until one names the ticket `key`. */
  async function heard(app: FastifyInstance, key: string, act: () => Promise<unknown>): Promise<ChangeEvent[]> {
    const events: ChangeEvent[] = [];
    let done = () => {};
    const named = new Promise<void>((resolve) => (done = resolve));
    const stop = app.liveEvents.subscribe((event) => {
      events.push(event);
      if (event.ticket?.key === key) done();
    });
    try {
      await app.liveEvents.ready();
      await act();
      await Promise.race([named, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    } finally {
      stop();
    }
    return events;
  }

  it('hears a comment made on the first node on the second, and one made on the second on the first', async () => {
    const comment = (app: FastifyInstance, body: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/tickets/ATR-5/comments',
        headers: { authorization: `Bearer ${admin}` },
        payload: { body },
      });
    const onSecond = await heard(second, 'ATR-5', () => comment(first.app, 'Made on the first'));
    expect(onSecond.some((event) => event.ticket?.key === 'ATR-5' && event.kind === 'commented')).toBe(true);
    const onFirst = await heard(first.app, 'ATR-5', () => comment(second, 'Made on the second'));
    expect(onFirst.some((event) => event.ticket?.key === 'ATR-5' && event.kind === 'commented')).toBe(true);
  });
});
