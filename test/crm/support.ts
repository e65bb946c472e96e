import { expect } from 'vitest';
import { startTestService, type Reply, type TestService } from '../helpers/service.ts';

/** The CRM fixture's personas (test/fixtures/crm-workspace.yaml says who may do what). */
export const PERSONAS = ['ada', 'mia', 'sam', 'lia', 'vic', 'cora', 'olga'] as const;
export type Persona = (typeof PERSONAS)[number];
export type Tokens = Record<Persona, string> & { samRead: string; adaRead: string };

export async function tokensFor(service: TestService): Promise<Tokens> {
  const entries = await Promise.all(
    PERSONAS.map(async (p) => [p, await service.token(`${p}@example.com`, 'write', `${p}'s agent`)] as const),
  );
  return {
    ...(Object.fromEntries(entries) as Record<Persona, string>),
    samRead: await service.token('sam@example.com', 'read', "sam's reader"),
    adaRead: await service.token('ada@example.com', 'read', "ada's reader"),
  };
}

/** The test file's one service on the CRM fixture, with a token per persona. */
export async function startCrm(
  options: Parameters<typeof startTestService>[0] = {},
): Promise<{ service: TestService; t: Tokens; api: CrmApi }> {
  const service = await startTestService({ workspace: 'crm-workspace.yaml', ...options });
  return { service, t: await tokensFor(service), api: crmApi(service) };
}

export type CrmApi = ReturnType<typeof crmApi>;

const query = (params: Record<string, unknown>) => {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) search.append(k, String(v));
  return search.size ? `?${search}` : '';
};

export function crmApi(service: TestService) {
  const call = (method: string, path: string, token: string, body?: unknown) => service.request(method, `/api/v1${path}`, { token, body });
  return {
    call,
    searchContacts: (token: string, params: Record<string, unknown> = {}) => call('GET', `/contacts${query(params)}`, token),
    getContact: (token: string, id: string) => call('GET', `/contacts/${encodeURIComponent(id)}`, token),
    createContact: (token: string, body: unknown) => call('POST', '/contacts', token, body),
    updateContact: (token: string, id: string, body: unknown) => call('PATCH', `/contacts/${encodeURIComponent(id)}`, token, body),
    addEmail: (token: string, id: string, body: unknown) => call('POST', `/contacts/${encodeURIComponent(id)}/emails`, token, body),
    addPhone: (token: string, id: string, body: unknown) => call('POST', `/contacts/${encodeURIComponent(id)}/phones`, token, body),
    searchCompanies: (token: string, params: Record<string, unknown> = {}) => call('GET', `/companies${query(params)}`, token),
    getCompany: (token: string, id: string) => call('GET', `/companies/${encodeURIComponent(id)}`, token),
    updateCompany: (token: string, id: string, body: unknown) => call('PATCH', `/companies/${encodeURIComponent(id)}`, token, body),
    listInteractions: (token: string, params: Record<string, unknown>) => call('GET', `/interactions${query(params)}`, token),
    logInteraction: (token: string, body: unknown) => call('POST', '/interactions', token, body),
    complete: (token: string, id: string) => call('POST', `/interactions/${encodeURIComponent(id)}/complete`, token, {}),
    followUps: (token: string) => call('GET', '/follow-ups', token),
  };
}

/** A contact's id by name (test arrangement reads what the fixture made). */
export async function contactId(service: TestService, name: string): Promise<string> {
  return (await service.db.selectFrom('contacts').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

export async function companyId(service: TestService, name: string): Promise<string> {
  return (await service.db.selectFrom('companies').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

/** Everything the CRM stores, with the histories and reminders: what a refused request must leave alone. */
export async function crmState(service: TestService) {
  const tables = [
    'companies',
    'contacts',
    'contact_emails',
    'contact_phones',
    'crm_roles',
    'deals',
    'deal_contacts',
    'interactions',
    'history',
    'reminders',
  ] as const;
  const state: Record<string, string[]> = {};
  // in one order whatever the engine returned, so two reads of the same rows compare equal
  for (const table of tables)
    state[table] = (await service.db.selectFrom(table).selectAll().execute()).map((r) => JSON.stringify(r)).sort();
  state.ticket_field_values = (await service.db.selectFrom('ticket_field_values').selectAll().execute())
    .map((r) => JSON.stringify(r))
    .sort();
  state.tickets = (await service.db.selectFrom('tickets').select(['id', 'status_id', 'updated_at']).execute())
    .map((r) => JSON.stringify(r))
    .sort();
  return state;
}

/** A refused request: its status and code, and nothing stored changed. Answers the message. */
export async function refused(service: TestService, send: () => Promise<Reply>, status: number, code: string): Promise<string> {
  const before = await crmState(service);
  const reply = await send();
  expect(reply.status, reply.text).toBe(status);
  expect(reply.body.error.code).toBe(code);
  expect(await crmState(service)).toEqual(before);
  return reply.body.error.message as string;
}

/** History entries of one record, oldest first. */
export async function historyOf(service: TestService, entityType: string, entityId: string) {
  return service.db
    .selectFrom('history as h')
    .leftJoin('members as m', 'm.id', 'h.actor_id')
    .select(['h.kind', 'h.changes', 'h.via', 'm.display_name as member'])
    .where('h.entity_type', '=', entityType)
    .where('h.entity_id', '=', entityId)
    .orderBy('h.at')
    .orderBy('h.id')
    .execute();
}

export { callTool } from '../mcp/mcp-client.ts';
