import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_POLICY } from '../../src/modules/tickets/index.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

// Spec 5.6 for tickets, held as a table: (persona, action on a ticket) → the status the API answers.
// Each persona acts on a fresh ticket reported by Lee Lead (so edit_own does not apply), in TIX.

let service: TestService;
const tokens: Record<string, string> = {};
const PERSONAS = ['ada', 'lee', 'dev1', 'vic', 'olga', 'leeRead'] as const;
type Persona = (typeof PERSONAS)[number];

beforeAll(async () => {
  service = await startTestService({ workspace: 'tickets-workspace.yaml' });
  for (const who of ['ada', 'lee', 'dev1', 'vic', 'olga']) tokens[who] = await service.token(`${who}@example.com`);
  tokens.leeRead = await service.token('lee@example.com', 'read', 'reader');
});
afterAll(() => service.close());

async function freshTicket(): Promise<string> {
  const reply = await service.request('POST', '/api/v1/tickets', { token: tokens.lee, body: { project: 'TIX', summary: 'Policy target' } });
  return reply.body.key;
}

// rank is a board action (card moves within a column, backlog moves): test/boards holds it.
type ApiAction = Exclude<keyof typeof TICKET_POLICY, 'rank'>;

const ACTIONS: Record<ApiAction, (key: string) => [string, string, Record<string, unknown> | undefined]> = {
  create: () => ['POST', '/tickets', { project: 'TIX', summary: 'Made by the table' }],
  edit: (key) => ['PATCH', `/tickets/${key}`, { summary: 'Edited by the table' }],
  transition: (key) => ['POST', `/tickets/${key}/transitions`, { transition: 'Start' }],
  assign: (key) => ['PUT', `/tickets/${key}/assignee`, { assignee: 'Lee Lead' }],
  comment: (key) => ['POST', `/tickets/${key}/comments`, { body: 'From the table' }],
  log_work: (key) => ['POST', `/tickets/${key}/worklogs`, { time_spent: '15m' }],
};

const EXPECTED: Record<Persona, Record<ApiAction, number>> = {
  ada: { create: 201, edit: 200, transition: 200, assign: 200, comment: 201, log_work: 201 },
  lee: { create: 201, edit: 200, transition: 200, assign: 200, comment: 201, log_work: 201 },
  dev1: { create: 201, edit: 403, transition: 200, assign: 403, comment: 201, log_work: 201 },
  vic: { create: 403, edit: 403, transition: 403, assign: 403, comment: 403, log_work: 403 },
  olga: { create: 422, edit: 404, transition: 404, assign: 404, comment: 404, log_work: 404 },
  leeRead: { create: 403, edit: 403, transition: 403, assign: 403, comment: 403, log_work: 403 },
};

describe('ticket policy table (spec 5.6): what each persona may do to a ticket, through the API', () => {
  for (const persona of PERSONAS) {
    for (const [action, status] of Object.entries(EXPECTED[persona])) {
      it(`${persona} ${action} → ${status}`, async () => {
        const key = await freshTicket();
        const [method, path, body] = ACTIONS[action as ApiAction](key);
        const reply = await service.request(method, `/api/v1${path}`, { token: tokens[persona], body });
        expect(reply.status, reply.text).toBe(status);
        if (status === 403) expect(reply.body.error.code).toBe('forbidden');
      });
    }
  }

  it('the table names every permission a ticket action needs', () => {
    expect(Object.fromEntries(Object.entries(TICKET_POLICY).map(([action, rule]) => [action, rule.needs]))).toEqual({
      create: ['ticket:create'],
      edit: ['ticket:edit'],
      transition: ['ticket:transition'],
      assign: ['ticket:assign'],
      comment: ['ticket:comment'],
      log_work: ['ticket:comment', 'time:log'],
      rank: ['ticket:edit'],
    });
  });
});
