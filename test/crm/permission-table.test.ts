import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply, TestService } from '../helpers/service.ts';
import { callTool, companyId, contactId, startCrm, type CrmApi, type Tokens } from './support.ts';

// Spec 4.7 and 5.6 as a table: persona × company × action → the answer, through REST and the same
// call through MCP (which must succeed or fail alike, with the same sentence). Personas are the
// fixture's (test/fixtures/crm-workspace.yaml); `none` is a record with no company.

type Company = 'acme' | 'globex' | 'umbrella' | 'none';
type Action = 'read contact' | 'create contact' | 'update contact' | 'update company' | 'log interaction' | 'complete another’s follow-up';
type Who = 'ada' | 'mia' | 'sam' | 'lia' | 'vic' | 'cora' | 'olga' | 'samRead';

let service: TestService;
let t: Tokens;
let api: CrmApi;
const contacts = {} as Record<Company, string>;
const companies = {} as Record<Exclude<Company, 'none'>, string>;
const tasks = {} as Record<Company, string>;
const COMPANY_NAMES = { acme: 'Acme GmbH', globex: 'Globex Corporation', umbrella: 'Umbrella Labs' } as const;

beforeAll(async () => {
  ({ service, t, api } = await startCrm());
  const contactNames: Record<Company, string> = {
    acme: 'Anna Becker',
    globex: 'Gina Global',
    umbrella: 'Uwe Umbrella',
    none: 'Nora Nobody',
  };
  for (const [company, name] of Object.entries(contactNames) as [Company, string][]) contacts[company] = await contactId(service, name);
  for (const [company, name] of Object.entries(COMPANY_NAMES) as [Exclude<Company, 'none'>, string][])
    companies[company] = await companyId(service, name);
  // a follow-up in each place that is nobody's but the administrator's
  for (const company of ['acme', 'globex', 'umbrella', 'none'] as Company[]) {
    const reply = await api.logInteraction(t.ada, { kind: 'task', subject: `Ada's task (${company})`, contact: contacts[company] });
    expect(reply.status, reply.text).toBe(201);
    tasks[company] = reply.body.id;
  }
});
afterAll(() => service?.close());

/** One action on one company: its REST request and the same call as a tool. */
function request(
  action: Action,
  company: Company,
  n: number,
): { rest: (token: string) => Promise<Reply>; tool: [string, Record<string, unknown>] } {
  const companyName = company === 'none' ? undefined : COMPANY_NAMES[company];
  switch (action) {
    case 'read contact':
      return { rest: (token) => api.getContact(token, contacts[company]), tool: ['get_contact', { id: contacts[company] }] };
    case 'create contact': {
      const body = { name: `Table contact ${n}`, ...(companyName ? { company: companyName } : {}) };
      return { rest: (token) => api.createContact(token, body), tool: ['create_contact', { ...body, name: `${body.name} (tool)` }] };
    }
    case 'update contact':
      return {
        rest: (token) => api.updateContact(token, contacts[company], { job_title: `Title ${n}` }),
        tool: ['update_contact', { id: contacts[company], job_title: `Title ${n} (tool)` }],
      };
    case 'update company':
      return {
        rest: (token) => api.updateCompany(token, companies[company as Exclude<Company, 'none'>], { industry: `Industry ${n}` }),
        tool: ['update_company', { id: companies[company as Exclude<Company, 'none'>], industry: `Industry ${n} (tool)` }],
      };
    case 'log interaction': {
      const body = { kind: 'note', subject: `Table note ${n}`, contact: contacts[company] };
      return { rest: (token) => api.logInteraction(token, body), tool: ['log_interaction', body] };
    }
    case 'complete another’s follow-up':
      return { rest: (token) => api.complete(token, tasks[company]), tool: ['complete_follow_up', { id: tasks[company] }] };
  }
}

const ALL_OK = { read: 200, create: 201, update: 200, company: 200, log: 201, complete: 200 };
type Row = typeof ALL_OK;
const row = (read: number, create: number, update: number, company: number, log: number, complete: number): Row => ({
  read,
  create,
  update,
  company,
  log,
  complete,
});

/** The expected status per persona and company. */
const TABLE: Record<Who, Record<Company, Row>> = {
  ada: { acme: ALL_OK, globex: ALL_OK, umbrella: ALL_OK, none: ALL_OK },
  mia: { acme: ALL_OK, globex: ALL_OK, umbrella: ALL_OK, none: ALL_OK },
  // edits the whole CRM, manages none of it
  sam: {
    acme: row(200, 201, 200, 200, 201, 403),
    globex: row(200, 201, 200, 200, 201, 403),
    umbrella: row(200, 201, 200, 200, 201, 403),
    none: row(200, 201, 200, 200, 201, 403),
  },
  // edits Acme, sees Globex, knows nothing else (a company she cannot see matches nothing: 422 in a field, 404 in a path)
  lia: {
    acme: row(200, 201, 200, 200, 201, 403),
    globex: row(200, 403, 403, 403, 403, 403),
    umbrella: row(404, 422, 404, 404, 404, 404),
    none: row(404, 403, 404, 404, 404, 404),
  },
  vic: Object.fromEntries(
    (['acme', 'globex', 'umbrella', 'none'] as Company[]).map((c) => [c, row(200, 403, 403, 403, 403, 403)]),
  ) as Record<Company, Row>,
  cora: Object.fromEntries(
    (['acme', 'globex', 'umbrella', 'none'] as Company[]).map((c) => [c, row(200, 403, 403, 403, 403, 403)]),
  ) as Record<Company, Row>,
  // the CRM is closed to her: records 404, what names no record 403
  olga: Object.fromEntries(
    (['acme', 'globex', 'umbrella', 'none'] as Company[]).map((c) => [c, row(404, 403, 404, 404, 403, 404)]),
  ) as Record<Company, Row>,
  samRead: Object.fromEntries(
    (['acme', 'globex', 'umbrella', 'none'] as Company[]).map((c) => [c, row(200, 403, 403, 403, 403, 403)]),
  ) as Record<Company, Row>,
};

const ACTIONS: [Action, keyof Row][] = [
  ['read contact', 'read'],
  ['create contact', 'create'],
  ['update contact', 'update'],
  ['update company', 'company'],
  ['log interaction', 'log'],
  ['complete another’s follow-up', 'complete'],
];

describe('4.7, 5.6 the CRM permission table: persona × company × action, through REST and MCP', () => {
  let n = 0;
  for (const who of Object.keys(TABLE) as Who[]) {
    it(`${who}`, async () => {
      const wrong: string[] = [];
      for (const company of ['acme', 'globex', 'umbrella', 'none'] as Company[]) {
        for (const [action, column] of ACTIONS) {
          // a record with no company has no company to update
          if (company === 'none' && column === 'company') continue;
          const expected = TABLE[who][company][column];
          const call = request(action, company, (n += 1));
          const rest = await call.rest(t[who]);
          if (rest.status !== expected) wrong.push(`${who} ${action} ${company}: REST ${rest.status} (${rest.text}), expected ${expected}`);
          const tool = await callTool(service, t[who], ...call.tool);
          if (tool.isError !== expected >= 400)
            wrong.push(`${who} ${action} ${company}: MCP ${tool.isError ? 'refused' : 'done'}: ${tool.content[0]?.text.slice(0, 120)}`);
          if (tool.isError && rest.status >= 400 && tool.content[0]!.text !== rest.body.error.message) {
            wrong.push(`${who} ${action} ${company}: MCP said "${tool.content[0]!.text}", REST "${rest.body.error.message}"`);
          }
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});
