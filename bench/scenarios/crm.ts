import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/storage/schema.ts';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import type { Scenario } from './scenario.ts';

// The CRM's scenarios: contact search over 50,000 contacts and 5,000 companies, get_company on a
// company with 200 contacts and 50 deals, and log_interaction. The acting member (the bench agent)
// holds a whole-CRM role, as a salesperson would; the data is made once per database.

export const CONTACTS = 50_000;
export const COMPANIES = 5_000;
const BIG_COMPANY = 'Bench Company 0';
const BIG_CONTACTS = 200;
const DEALS = 50;

const FIRST =
  'anna ben carla david emma felix greta hans ida jonas karla lars mia noah olga paul rosa sam tina uwe vera wim yara zoe'.split(' ');
const LAST =
  'becker fischer weber wagner schulz hoffmann koch richter klein wolf neumann schwarz braun zimmermann kruger hartmann lange werner krause meier lehmann huber mayer kaiser fuchs peters scholz moller weiss jung hahn vogel friedrich keller gunther frank berger winkler roth beck lorenz baumann franke albrecht schuster simon ludwig bohm winter kraus martin'.split(
    ' ',
  );
const INDUSTRIES =
  'manufacturing energy software retail logistics pharmaceuticals banking insurance media telecom construction agriculture'.split(' ');

/** A word the search finds in about one contact in fifty: one of the last names. */
export const SEARCH_WORD = 'hartmann';

async function seedCrm(db: Kysely<DB>): Promise<Record<string, string>> {
  const env = { bigCompany: BIG_COMPANY, searchWord: SEARCH_WORD };
  const made = await sql<{ n: number }>`select count(*)::int as n from contacts`.execute(db);
  if ((made.rows[0]?.n ?? 0) >= CONTACTS) return env;

  // structure through the workspace file, as a real workspace declares it
  await applyWorkspace(db, {
    roles: [
      { name: 'Bench CRM', permissions: ['crm:view', 'crm:edit', 'crm:manage'] },
      { name: 'Bench seller', permissions: ['project:view', 'ticket:create', 'ticket:edit', 'ticket:transition', 'ticket:comment'] },
    ],
    workflows: [
      {
        name: 'Bench pipeline',
        statuses: [
          { name: 'Lead', category: 'todo' },
          { name: 'Proposal', category: 'in_progress' },
          { name: 'Won', category: 'done' },
          { name: 'Lost', category: 'done' },
        ],
        transitions: [
          { name: 'Propose', from: ['Lead'], to: 'Proposal' },
          { name: 'Won', from: 'any', to: 'Won' },
          { name: 'Lost', from: 'any', to: 'Lost', screen: { fields: ['lost_reason'] } },
        ],
      },
    ],
    projects: [
      {
        key: 'DEAL',
        name: 'Bench deals',
        kind: 'sales',
        workflow: 'Bench pipeline',
        ticket_types: ['Deal'],
        labels: ['bench'],
        custom_fields: [
          { key: 'deal_value', name: 'Deal value', type: 'number' },
          { key: 'deal_currency', name: 'Currency', type: 'select', choices: ['EUR', 'USD'] },
          { key: 'expected_close', name: 'Expected close', type: 'date' },
          { key: 'probability', name: 'Probability', type: 'select', choices: ['25%', '50%', '75%'] },
          { key: 'lost_reason', name: 'Lost reason', type: 'text' },
        ],
        roles: [{ role: 'Bench seller', members: ['agent@bench.example'] }],
      },
    ],
    crm: { roles: [{ role: 'Bench CRM', members: ['agent@bench.example'] }] },
  });

  const word = (list: string[], expr: ReturnType<typeof sql>) => sql`(${list}::text[])[1 + (${expr}) % ${list.length}]`;
  await sql`
    insert into companies (name, domains, stage, industry, size)
    select 'Bench Company ' || n, array['company' || n || '.example'],
           (array['lead', 'prospect', 'customer', 'former'])[1 + n % 4], ${word(INDUSTRIES, sql`n`)},
           (array['1-10', '11-50', '51-200', '201-1000', '1000+'])[1 + n % 5]
    from generate_series(0, ${COMPANIES - 1}) n
  `.execute(db);
  // company 0 holds 200 contacts; the others share the rest
  await sql`
    with c as (select array_agg(id order by (substring(name from 15))::int) as ids from companies where name like 'Bench Company %')
    insert into contacts (name, job_title, stage, company_id, source, created_at, updated_at)
    select initcap(${word(FIRST, sql`n`)} || ' ' || ${word(LAST, sql`n / 7`)}), 'Buyer',
           (array['lead', 'qualified', 'customer', 'former'])[1 + n % 4],
           c.ids[case when n < ${BIG_CONTACTS} then 1 else 2 + n % (${COMPANIES} - 1) end], 'bench',
           now() - (n || ' minutes')::interval, now()
    from c, generate_series(0, ${CONTACTS - 1}) n
  `.execute(db);
  await sql`
    insert into contact_emails (contact_id, address, label, is_primary)
    select c.id, lower(replace(c.name, ' ', '.')) || '.' || row_number() over (order by c.id) || '@' || co.domains[1], 'work', true
    from contacts c join companies co on co.id = c.company_id
  `.execute(db);
  await sql`update contacts set search_vector = contact_search_document(id)`.execute(db);

  // 50 deals of company 0: tickets of the sales project with their deal fields, half of them closed
  const project = await db.selectFrom('projects').select(['id', 'next_ticket_number']).where('key', '=', 'DEAL').executeTakeFirstOrThrow();
  await sql`
    with t as (select id as type_id, workflow_id from ticket_types where project_id = ${project.id} limit 1),
         s as (select array_agg(st.id order by st.position) as ids from statuses st, t where st.workflow_id = t.workflow_id)
    insert into tickets (project_id, number, key, summary, type_id, status_id, resolved_at)
    select ${project.id}, ${project.next_ticket_number} + n, 'DEAL-' || (${project.next_ticket_number} + n), 'Bench deal ' || n, t.type_id,
           s.ids[1 + n % 4], case when n % 4 >= 2 then now() - (n || ' days')::interval end
    from t, s, generate_series(0, ${DEALS - 1}) n
  `.execute(db);
  await sql`update projects set next_ticket_number = next_ticket_number + ${DEALS} where id = ${project.id}`.execute(db);
  await sql`
    insert into deals (ticket_id, company_id)
    select t.id, (select id from companies where name = ${BIG_COMPANY}) from tickets t where t.project_id = ${project.id}
  `.execute(db);
  await sql`
    insert into ticket_field_values (ticket_id, field_id, value, display)
    select t.id, f.id,
           case f.key when 'deal_value' then to_jsonb(1000 * t.number) when 'deal_currency' then to_jsonb('EUR'::text)
                      when 'expected_close' then to_jsonb('2027-0' || (1 + t.number % 9) || '-15') else to_jsonb('50%'::text) end,
           case f.key when 'deal_value' then (1000 * t.number)::text when 'deal_currency' then 'EUR'
                      when 'expected_close' then '2027-0' || (1 + t.number % 9) || '-15' else '50%' end
    from tickets t join custom_fields f on f.project_id = t.project_id and f.key in ('deal_value', 'deal_currency', 'expected_close', 'probability')
    where t.project_id = ${project.id}
  `.execute(db);
  await sql`update tickets set search_vector = ticket_search_document(id) where project_id = ${project.id}`.execute(db);
  // a live database's state after autovacuum: the visibility map lets a count read the index alone
  await sql`vacuum (analyze) companies, contacts, contact_emails, deals, ticket_field_values`.execute(db);
  return env;
}

export const scenarios: Scenario[] = [
  {
    name: `GET /api/v1/contacts?q=${SEARCH_WORD} (50,000 contacts)`,
    seed: (db) => seedCrm(db),
    request: () => ({ method: 'GET', path: `/api/v1/contacts?q=${SEARCH_WORD}` }),
    baseline: (db) =>
      sql`select id, name from contacts where search_vector @@ to_tsquery('simple', ${`${SEARCH_WORD}:*`}) and not archived
          order by created_at desc, id desc limit 20`
        .execute(db)
        .then((r) => r.rows),
  },
  {
    name: 'GET /api/v1/contacts (newest first, 50,000 contacts)',
    request: () => ({ method: 'GET', path: '/api/v1/contacts' }),
    baseline: (db) =>
      sql`select id, name from contacts where not archived order by created_at desc, id desc limit 20`.execute(db).then((r) => r.rows),
  },
  {
    name: 'GET /api/v1/companies/{name} (200 contacts, 50 deals)',
    request: () => ({ method: 'GET', path: `/api/v1/companies/${encodeURIComponent(BIG_COMPANY)}` }),
    baseline: (db) =>
      sql`select c.id, c.name from contacts c join companies co on co.id = c.company_id where co.name = ${BIG_COMPANY} order by c.name`
        .execute(db)
        .then((r) => r.rows),
  },
  {
    name: 'POST /api/v1/interactions (a note on a company)',
    request: () => ({
      method: 'POST',
      path: '/api/v1/interactions',
      body: { kind: 'note', subject: 'Bench note', company: BIG_COMPANY, body: 'Logged by the benchmark' },
    }),
  },
];
