import { expect } from 'vitest';
import type { TestService } from '../helpers/service.ts';

export const PERSONAS = ['ada', 'lee', 'pat', 'dan', 'rae', 'vic', 'olga'] as const;
export type Persona = (typeof PERSONAS)[number];
export type Tokens = Record<Persona, string> & { adaRead: string; leeRead: string };

export async function tokensFor(service: TestService): Promise<Tokens> {
  const entries = await Promise.all(PERSONAS.map(async (p) => [p, await service.token(`${p}@example.com`)] as const));
  return {
    ...(Object.fromEntries(entries) as Record<Persona, string>),
    adaRead: await service.token('ada@example.com', 'read'),
    leeRead: await service.token('lee@example.com', 'read'),
  };
}

/** Creates a ticket through the API and returns its key. */
export async function createTicket(service: TestService, token: string, project: string, summary: string): Promise<string> {
  const reply = await service.request('POST', '/api/v1/tickets', { token, body: { project, summary } });
  expect(reply.status, reply.text).toBe(201);
  return reply.body.key as string;
}

export async function transition(service: TestService, token: string, key: string, body: Record<string, unknown>) {
  const reply = await service.request('POST', `/api/v1/tickets/${key}/transitions`, { token, body });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

export async function board(service: TestService, token: string, number: number, query = '') {
  const reply = await service.request('GET', `/api/v1/boards/${number}${query}`, { token });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

/** The keys in each column of a board view, by column name. */
export function columnKeys(detail: { columns: { name: string | null; tickets: { key: string }[] }[] }): Record<string, string[]> {
  return Object.fromEntries(detail.columns.map((c) => [c.name ?? '', c.tickets.map((t) => t.key)]));
}

export async function backlog(service: TestService, token: string, number: number) {
  const reply = await service.request('GET', `/api/v1/boards/${number}/backlog`, { token });
  expect(reply.status, reply.text).toBe(200);
  return reply.body as {
    board: number;
    sprints: { id: string; name: string; state: string; start_at: string | null; tickets: { key: string }[] }[];
    backlog: { key: string }[];
  };
}

/** What a refused move must leave alone: status, rank order, sprint and history. */
export async function snapshot(service: TestService, key: string) {
  const ticket = await service.db
    .selectFrom('tickets')
    .select(['id', 'status_id', 'rank', 'resolution_id', 'updated_at'])
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  const sprints = await service.db
    .selectFrom('sprint_tickets')
    .select(['sprint_id', 'open'])
    .where('ticket_id', '=', ticket.id)
    .orderBy('sprint_id')
    .execute();
  const history = await service.db.selectFrom('history').select(['id']).where('entity_id', '=', ticket.id).execute();
  const comments = await service.db.selectFrom('comments').select('id').where('ticket_id', '=', ticket.id).execute();
  return { ticket, sprints, history: history.length, comments: comments.length };
}
