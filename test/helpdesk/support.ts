import { expect } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';

export const PERSONAS = ['ada', 'pia', 'fay', 'abe', 'vic', 'olga'] as const;
export type Persona = (typeof PERSONAS)[number];
export type Tokens = Record<Persona, string> & { piaRead: string; adaRead: string };

/** One write token per persona (named after the persona's agent), plus read tokens. */
export async function tokensFor(service: TestService): Promise<Tokens> {
  const entries = await Promise.all(
    PERSONAS.map(async (p) => [p, await service.token(`${p}@example.com`, 'write', `${p}'s agent`)] as const),
  );
  return {
    ...(Object.fromEntries(entries) as Record<Persona, string>),
    piaRead: await service.token('pia@example.com', 'read', "pia's reader"),
    adaRead: await service.token('ada@example.com', 'read', "ada's reader"),
  };
}

export type FormsApi = ReturnType<typeof formsApi>;

export function formsApi(service: TestService, project = 'HELP') {
  const base = `/api/v1/projects/${project}/request-types`;
  return {
    list: (token: string, query = '') => service.request('GET', `${base}${query}`, { token }),
    get: (token: string, form: string) => service.request('GET', `${base}/${encodeURIComponent(form)}`, { token }),
    create: (token: string, body: unknown) => service.request('POST', base, { token, body }),
    update: (token: string, form: string, body: unknown) =>
      service.request('PATCH', `${base}/${encodeURIComponent(form)}`, { token, body }),
    order: (token: string, order: unknown) => service.request('POST', `${base}/order`, { token, body: { order } }),
    retire: (token: string, form: string) => service.request('DELETE', `${base}/${encodeURIComponent(form)}`, { token }),
  };
}

/** The keys of a project's forms in portal order, as a manager sees them. */
export async function portalKeys(service: TestService, token: string, project = 'HELP', query = ''): Promise<string[]> {
  const reply = await formsApi(service, project).list(token, query);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.request_types.map((f: { key: string }) => f.key);
}

/** Everything stored about the project's forms and the audit log: what a refused request must leave alone. */
export async function formsState(service: TestService) {
  const forms = await service.db.selectFrom('request_types').selectAll().orderBy('id').execute();
  const audit = await service.db.selectFrom('audit_log').select('id').execute();
  return { forms, audit: audit.length };
}

/** Audit log entries about one target, oldest first (there is no API to read the log). */
export async function auditEntries(service: TestService, target: string) {
  const rows = await service.db
    .selectFrom('audit_log as a')
    .leftJoin('members as m', 'm.id', 'a.actor_id')
    .select(['a.action', 'a.target', 'a.via', 'm.display_name as member', 'a.changes', 'a.at'])
    .where('a.target', '=', target)
    .orderBy('a.at')
    .orderBy('a.id')
    .execute();
  return rows;
}

/** The test file's one service on the helpdesk fixture, with a token per persona and the forms API. */
export async function startHelpdesk(): Promise<{ service: TestService; t: Tokens; help: FormsApi }> {
  const service = await startTestService({ workspace: 'helpdesk-workspace.yaml' });
  return { service, t: await tokensFor(service), help: formsApi(service) };
}
