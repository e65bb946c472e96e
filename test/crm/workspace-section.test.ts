import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { WorkspaceFileError } from '../../src/workspace/errors.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { FIXTURES, startTestService, type TestService } from '../helpers/service.ts';

// The workspace file's `crm` section: roles per member or group over the whole CRM or single
// companies, companies upserted by name, seed contacts, deals and interactions created once.

type File = Record<string, any>;

let service: TestService;
const fixture = () => parseWorkspaceYaml(fs.readFileSync(new URL('crm-workspace.yaml', FIXTURES), 'utf8')) as File;

beforeAll(async () => {
  service = await startTestService({ workspace: 'crm-workspace.yaml' });
});
afterAll(() => service?.close());

/** Everything the CRM stores, for comparing before and after. */
async function crmState() {
  const tables = [
    'companies',
    'contacts',
    'contact_emails',
    'contact_phones',
    'crm_roles',
    'deals',
    'deal_contacts',
    'interactions',
  ] as const;
  const state: Record<string, unknown[]> = {};
  for (const table of tables) state[table] = await service.db.selectFrom(table).selectAll().execute();
  return state;
}

async function refusal(change: (file: File) => void): Promise<string> {
  const file = fixture();
  change(file);
  const before = await crmState();
  const error = await applyWorkspace(service.db, file).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkspaceFileError);
  expect(await crmState()).toEqual(before);
  return (error as WorkspaceFileError).message;
}

describe('workspace file `crm`: applied once, idempotently', () => {
  it('stores the companies, roles, contacts, deals and interactions of the fixture', async () => {
    const state = await crmState();
    expect(state.companies).toHaveLength(4);
    // mia, Sellers, lia×2, vic, cora
    expect(state.crm_roles).toHaveLength(6);
    expect(state.contacts).toHaveLength(6);
    expect(state.contact_emails).toHaveLength(7);
    expect(state.deals).toHaveLength(3);
    expect(state.deal_contacts).toHaveLength(3);
    expect(state.interactions).toHaveLength(6);
  });

  it('makes the first address and number of a contact primary', async () => {
    const anna = await service.db.selectFrom('contacts').select('id').where('name', '=', 'Anna Becker').executeTakeFirstOrThrow();
    const emails = await service.db
      .selectFrom('contact_emails')
      .select(['address', 'is_primary'])
      .where('contact_id', '=', anna.id)
      .orderBy('created_at')
      .execute();
    expect(emails).toEqual([
      { address: 'anna.becker@acme.example', is_primary: true },
      { address: 'anna@home.example', is_primary: false },
    ]);
    const phones = await service.db
      .selectFrom('contact_phones')
      .select(['number', 'is_primary'])
      .where('contact_id', '=', anna.id)
      .orderBy('created_at')
      .execute();
    expect(phones).toEqual([
      { number: '+49 30 1234567', is_primary: true },
      { number: '0170 555 0101', is_primary: false },
    ]);
  });

  it('records a reminder for the seeded open follow-up, for its assignee at its due moment', async () => {
    const reminders = await service.db
      .selectFrom('reminders')
      .select(['entity_type', 'kind', 'payload'])
      .where('entity_type', '=', 'interaction')
      .execute();
    expect(reminders).toEqual([
      { entity_type: 'interaction', kind: 'follow_up', payload: expect.objectContaining({ subject: 'Send the contract' }) },
    ]);
  });

  it('writes nothing when the same file is applied again', async () => {
    const before = await crmState();
    const report = await applyWorkspace(service.db, fixture());
    expect(report.changed).toBe(false);
    expect(await crmState()).toEqual(before);
  });

  it('changes only what a company entry states, and keeps what the API may change', async () => {
    const file = fixture();
    file.crm.companies[1] = { name: 'GLOBEX corporation', industry: 'Utilities' };
    expect((await applyWorkspace(service.db, file)).changed).toBe(true);
    const globex = await service.db.selectFrom('companies').selectAll().where('name', '=', 'GLOBEX corporation').executeTakeFirstOrThrow();
    expect(globex).toMatchObject({ industry: 'Utilities', stage: 'prospect', domains: ['globex.example'] });
    expect((await crmState()).companies).toHaveLength(4);
  });

  it('makes the roles exactly the listed ones, and the next request of a token holds the new ones (a process keeps them per token only while they stay)', async () => {
    const vic = await service.token('vic@example.com', 'read', 'CRM viewer');
    const contacts = async () => (await service.request('GET', '/api/v1/contacts', { token: vic })).status;
    expect([await contacts(), await contacts()]).toEqual([200, 200]);
    const file = fixture();
    file.crm.roles = file.crm.roles.filter((r: { members?: string[] }) => !r.members?.includes('vic@example.com'));
    await applyWorkspace(service.db, file);
    expect((await crmState()).crm_roles).toHaveLength(4);
    expect(await contacts()).toBe(403);
    await applyWorkspace(service.db, fixture());
    expect((await crmState()).crm_roles).toHaveLength(6);
    expect(await contacts()).toBe(200);
  });
});

describe('workspace file `crm`: a mistake is named by its place and changes nothing', () => {
  it('refuses a role that does not exist', async () => {
    expect(await refusal((f) => (f.crm.roles[0].role = 'Nope'))).toMatch(/crm\.roles\[0\]\.role: no role "Nope"/);
  });

  it('refuses a company nobody declared', async () => {
    expect(await refusal((f) => (f.crm.roles[2].companies = ['Nowhere Inc']))).toMatch(
      /crm\.roles\[2\]\.companies\[0\]: no company "Nowhere Inc"/,
    );
    expect(await refusal((f) => (f.crm.contacts[0].company = 'Nowhere Inc'))).toMatch(/crm\.contacts\[0\]\.company/);
  });

  it('refuses one address on two contacts', async () => {
    expect(await refusal((f) => f.crm.contacts.push({ name: 'Twin', email: 'ANNA.BECKER@acme.example' }))).toMatch(
      /crm\.contacts\[6\]: the address/,
    );
  });

  it('refuses a deal that is not a ticket of a sales project', async () => {
    expect(await refusal((f) => f.crm.deals.push({ ticket: 'SALES-99' }))).toMatch(/crm\.deals\[3\]\.ticket: no ticket SALES-99/);
  });

  it('refuses a due moment on something that is not a task', async () => {
    expect(await refusal((f) => (f.crm.interactions[0].due_at = '2026-03-02T10:00:00Z'))).toMatch(
      /crm\.interactions\[0\]\.due_at: only a task/,
    );
  });

  it('refuses a local time without a time zone', async () => {
    expect(
      await refusal((f) =>
        f.crm.interactions.push({ kind: 'call', subject: 'Local', company: 'Initech', occurred_at: '2026-03-02T10:00' }),
      ),
    ).toMatch(/crm\.interactions\[6\]\.timezone: is required with a local time \(occurred_at/);
  });
});
