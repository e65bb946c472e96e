import { sql } from 'kysely';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineOperation } from '../../src/core/operation.ts';
import { createRegistry } from '../../src/core/registry.ts';
import { StringEnum } from '../../src/core/schema-kit.ts';
import { registry } from '../../src/modules/index.ts';
import { captureLogLines } from '../helpers/log-capture.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { callTool } from '../mcp/mcp-client.ts';

// A 500's log line says which request, which operation, the failure's class and code and the
// constraint it broke — never what the database said about the row (its `detail`, its message),
// which would put a company's name or a contact's address in the log. Each failure is forced
// with a statement no operation makes, carrying private values, and every log line is scanned.

const COMPANY = 'Privatesson Holdings';
const EMAIL = 'zebulon@secret-domain.example';
const PHONE = '+99 555 424242';
const SECRETS = ['Privatesson', 'secret-domain', 'zebulon', '424242'];

/** Statements that break one rule each, with the private values above in the row. */
const BREAKS = {
  // unique: "Key (lower(name))=(privatesson holdings) already exists."
  companies_name_key: sql`insert into companies (name) values (${COMPANY}), (${COMPANY.toUpperCase()})`,
  // unique: "Key (lower(address))=(zebulon@…) already exists."
  contact_emails_address_key: sql`
    with c as (insert into contacts (name) values ('Zebulon Privatesson') returning id)
    insert into contact_emails (contact_id, address) select id, a from c, unnest(array[${EMAIL}, ${EMAIL}]) a`,
  // check: "Failing row contains (…, +99 555 424242, pager, …)."
  contact_phones_label_check: sql`
    with c as (insert into contacts (name) values ('Zebulon Privatesson') returning id)
    insert into contact_phones (contact_id, number, label) select id, ${PHONE}, 'pager' from c`,
  // foreign key: "Key (company_id)=(…) is not present in table companies."
  contacts_company_id_fkey: sql`
    insert into contacts (name, company_id) values ('Zebulon Privatesson', gen_random_uuid())`,
  // not null: "Failing row contains (…, zebulon@…, …)."
  contact_emails_contact_id_not_null: sql`insert into contact_emails (contact_id, address) values (null, ${EMAIL})`,
  // a failure whose message itself holds the value (as "invalid input syntax for type uuid: …" does)
  raised: sql.raw(`do $$ begin raise exception 'no room for % at %', '${COMPANY}', '${EMAIL}'; end $$`),
} as const;
type Break = keyof typeof BREAKS;

const breakOperation = defineOperation({
  name: 'probe_break',
  tool: 'probe_break',
  method: 'POST',
  path: '/probe/break',
  module: 'core',
  access: 'write',
  summary: 'test: breaks a rule of the database',
  description: 'test: runs a statement the database refuses',
  body: Type.Object({ rule: StringEnum(Object.keys(BREAKS) as Break[]) }),
  response: Type.Object({}),
  handler: async (ctx, input) => {
    await BREAKS[input.rule].execute(ctx.db);
    return {};
  },
});

const log = captureLogLines();
let service: TestService;
let token: string;

beforeAll(async () => {
  const probes = createRegistry([...registry.operations, breakOperation]);
  service = await startTestService({ registry: probes, logStream: log.sink, logLevel: 'debug' });
  token = await service.token('ada@example.com', 'write');
});
afterAll(() => service?.close());

const entries = () => log.lines.map((line) => JSON.parse(line) as Record<string, any>);

describe('a 500’s log line has the request id, the operation, the class and the constraint, never data', () => {
  // a not-null violation names a column, not a constraint; a raised exception breaks no rule of a table
  const constraintOf = (rule: Break) => (rule === 'raised' || rule === 'contact_emails_contact_id_not_null' ? undefined : rule);

  it.each(Object.keys(BREAKS) as Break[])('%s, through REST and MCP', async (rule) => {
    const requestId = `break-${rule.replace(/_/g, '-')}`;
    const headers = { 'x-request-id': requestId };
    const reply = await service.request('POST', '/api/v1/probe/break', { token, body: { rule }, headers });
    expect(reply.status, reply.text).toBe(500);
    const result = await callTool(service, token, 'probe_break', { rule });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/^Something went wrong on our side; quote request id /);

    const failure = entries().find((e) => e.reqId === requestId && e.err);
    expect(failure, `no failure line for ${requestId}`).toBeDefined();
    expect(failure).toMatchObject({ operation: 'probe_break', err: { type: 'DatabaseError' } });
    expect(failure!.err.code).toMatch(/^[0-9A-Z]{5}$/);
    expect(failure!.err.constraint).toBe(constraintOf(rule));
    const fields = ['code', ...(constraintOf(rule) ? ['constraint'] : []), 'stack', 'type'];
    expect(Object.keys(failure!.err).sort()).toEqual(fields);
  });

  it('writes none of the row’s values anywhere in the log', () => {
    expect(log.lines.filter((line) => line.includes('probe_break')).length).toBeGreaterThan(6);
    const leaks = log.lines.filter((line) => SECRETS.some((secret) => line.toLowerCase().includes(secret.toLowerCase())));
    expect(leaks).toEqual([]);
  });
});
