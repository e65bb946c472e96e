import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { callTool, companyId, historyOf, refused, startCrm, type CrmApi, type Tokens } from './support.ts';

// Spec 2.9 (Company, CompanyList, CompanyDetail, DealSummary), 3.6 and 4.7: companies through REST and MCP.

let service: TestService;
let t: Tokens;
let api: CrmApi;
let acme: string;

beforeAll(async () => {
  ({ service, t, api } = await startCrm());
  acme = await companyId(service, 'Acme GmbH');
});
afterAll(() => service?.close());

const names = (reply: { body: { companies: { name: string }[] } }) => reply.body.companies.map((c) => c.name);

describe('2.9 CompanyDetail: the company, its contacts, its deals split into open and closed', () => {
  it('shows Acme GmbH, named by its name in any case', async () => {
    const reply = await api.getCompany(t.vic, '  acme gmbh ');
    expect(reply.status, reply.text).toBe(200);
    const sam = (await service.db.selectFrom('members').select('id').where('email', '=', 'sam@example.com').executeTakeFirstOrThrow()).id;
    const contact = { archived: false, company: { id: acme, name: 'Acme GmbH' } };
    expect(reply.body).toEqual({
      id: acme,
      name: 'Acme GmbH',
      domains: ['acme.example'],
      stage: 'customer',
      industry: 'Manufacturing',
      size: '201-1000',
      website: 'https://acme.example',
      owner: { id: sam, name: 'Sam Seller' },
      customer: true,
      archived: false,
      url: `http://localhost:8080/crm/companies/${acme}`,
      description: { format: 'markdown', text: 'Makes everything.' },
      contacts: [
        expect.objectContaining({ ...contact, name: 'Anna Becker', email: 'anna.becker@acme.example' }),
        expect.objectContaining({ ...contact, name: 'Ben Graf', email: 'ben.graf@acme.example' }),
      ],
      deals: {
        open: [
          {
            key: 'SALES-1',
            summary: 'Acme GmbH — 50 seats',
            status: { name: 'Proposal', category: 'in_progress' },
            assignee: { id: sam, name: 'Sam Seller' },
            value: '24000',
            currency: 'EUR',
            expected_close: '2027-01-31',
            probability: '75%',
          },
        ],
        closed: [expect.objectContaining({ key: 'SALES-4', status: { name: 'Won', category: 'done' }, value: '12000' })],
      },
    });
    expect((await api.getCompany(t.vic, acme)).body).toEqual(reply.body);
  });

  it('lists only the deals the member may see', async () => {
    const reply = await api.getCompany(t.cora, 'Acme GmbH');
    expect(reply.status).toBe(200);
    expect(reply.body.deals).toEqual({ open: [], closed: [] });
    expect(reply.body.contacts).toHaveLength(2);
  });

  it('shows a company with nothing as empty lists and nulls', async () => {
    const reply = await api.getCompany(t.vic, 'Umbrella Labs');
    expect(reply.body).toMatchObject({
      domains: [],
      size: null,
      website: null,
      owner: null,
      customer: false,
      description: null,
      deals: { open: [], closed: [] },
    });
  });
});

describe('4.7 search_companies: words in the name, industry or a domain; by name; paged', () => {
  it('finds by words and their beginnings', async () => {
    expect(names(await api.searchCompanies(t.vic, { q: 'glob' }))).toEqual(['Globex Corporation']);
    expect(names(await api.searchCompanies(t.vic, { q: 'acme.example' }))).toEqual(['Acme GmbH']);
    expect(names(await api.searchCompanies(t.vic, { q: 'pharma' }))).toEqual(['Umbrella Labs']);
  });

  it('filters by stage, owner and customers, and lists archived companies only when asked', async () => {
    expect(names(await api.searchCompanies(t.vic))).toEqual(['Acme GmbH', 'Globex Corporation', 'Umbrella Labs']);
    expect(names(await api.searchCompanies(t.vic, { stage: 'prospect' }))).toEqual(['Globex Corporation']);
    expect(names(await api.searchCompanies(t.vic, { owner: 'Sam Seller' }))).toEqual(['Acme GmbH', 'Globex Corporation']);
    expect(names(await api.searchCompanies(t.vic, { customers: true }))).toEqual(['Acme GmbH']);
    expect(names(await api.searchCompanies(t.vic, { archived: true }))).toEqual(['Initech']);
    const page = await api.searchCompanies(t.vic, { limit: 1, offset: 1 });
    expect(page.body).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(names(page)).toEqual(['Globex Corporation']);
    const pastTheEnd = await api.searchCompanies(t.vic, { limit: 2, offset: 5 });
    expect(pastTheEnd.body).toMatchObject({ companies: [], total: 3, limit: 2, offset: 5 });
    const wordsPastTheEnd = await api.searchCompanies(t.vic, { q: 'glob', offset: 1 });
    expect(wordsPastTheEnd.body).toMatchObject({ companies: [], total: 1, offset: 1 });
    expect((await api.searchCompanies(t.vic, { stage: 'customers' })).status).toBe(422);
  });

  it('lists only the companies a limited member may see, and refuses a member the CRM is closed to', async () => {
    expect(names(await api.searchCompanies(t.lia))).toEqual(['Acme GmbH', 'Globex Corporation']);
    const closed = await api.searchCompanies(t.olga);
    expect(closed.status).toBe(403);
    expect(closed.body.error.message).toBe('You may not see the CRM (needs crm:view from a CRM role)');
  });

  it('answers 404 for a company the member may not see, by name or id, and for one that does not exist', async () => {
    expect((await api.getCompany(t.lia, 'Umbrella Labs')).status).toBe(404);
    expect((await api.getCompany(t.lia, await companyId(service, 'Umbrella Labs'))).status).toBe(404);
    expect((await api.getCompany(t.olga, acme)).status).toBe(404);
    expect((await api.getCompany(t.ada, 'No Such Company')).status).toBe(404);
    expect((await api.getCompany(t.samRead, 'Acme GmbH')).status).toBe(200);
  });
});

describe('4.7 update_company: only what is sent changes; domains replace; customer and billing are not changeable here', () => {
  it('changes the fields, records one history entry, and leaves `customer` alone', async () => {
    const reply = await api.updateCompany(t.sam, 'Globex Corporation', {
      website: 'https://globex.example',
      industry: 'Utilities',
      size: '1000+',
      stage: 'customer',
      owner: 'Mia Manager',
      description: 'Big *energy*',
      domains: ['GLOBEX.example', 'globex.example', 'globex-energy.example'],
      customer: true,
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({
      name: 'Globex Corporation',
      website: 'https://globex.example',
      industry: 'Utilities',
      size: '1000+',
      stage: 'customer',
      owner: { name: 'Mia Manager' },
      domains: ['globex.example', 'globex-energy.example'],
      customer: false,
    });
    expect(reply.body).not.toHaveProperty('description');
    expect((await api.getCompany(t.sam, 'Globex Corporation')).body.description).toEqual({ format: 'markdown', text: 'Big *energy*' });
    const history = await historyOf(service, 'company', reply.body.id);
    expect(history.at(-1)).toMatchObject({ kind: 'updated', member: 'Sam Seller', via: "sam's agent" });
    expect(history.at(-1)!.changes).toContainEqual({
      field: 'domains',
      from: ['globex.example'],
      to: ['globex.example', 'globex-energy.example'],
    });
    expect(names(await api.searchCompanies(t.vic, { q: 'globex-energy' }))).toEqual(['Globex Corporation']);
  });

  it('clears with null, renames, and finds the company by its new name', async () => {
    const id = await companyId(service, 'Umbrella Labs');
    const reply = await api.updateCompany(t.mia, id, { name: 'Umbrella Research', industry: null, domains: [] });
    expect(reply.body).toMatchObject({ name: 'Umbrella Research', industry: null, domains: [] });
    expect((await api.getCompany(t.vic, 'umbrella research')).body.id).toBe(id);
    expect((await api.getCompany(t.vic, 'Umbrella Labs')).status).toBe(404);
  });

  it('refuses a name another company has, names over 255 characters, an unknown size and a bad domain, changing nothing', async () => {
    expect(await refused(service, () => api.updateCompany(t.sam, 'Globex Corporation', { name: 'ACME GMBH' }), 422, 'invalid')).toBe(
      '/name: another company is already named "ACME GMBH"; company names are unique in the workspace',
    );
    await refused(service, () => api.updateCompany(t.sam, 'Globex Corporation', { name: 'x'.repeat(256) }), 422, 'invalid');
    expect(await refused(service, () => api.updateCompany(t.sam, 'Globex Corporation', { size: '2-5' }), 422, 'invalid')).toMatch(
      /^\/size: /,
    );
    expect(
      await refused(service, () => api.updateCompany(t.sam, 'Globex Corporation', { domains: ['not a domain'] }), 422, 'invalid'),
    ).toMatch(/^\/domains\/0: /);
    expect(
      await refused(service, () => api.updateCompany(t.sam, 'Globex Corporation', { owner: 'Olga Outsider' }), 422, 'invalid'),
    ).toMatch(/^\/owner: Olga Outsider may not see the CRM for Globex Corporation/);
  });

  it('needs Edit the CRM for the company: 403 for those who may only see it, 404 for those who may not', async () => {
    expect((await api.updateCompany(t.lia, 'Acme GmbH', { industry: 'Machines' })).status).toBe(200);
    expect(await refused(service, () => api.updateCompany(t.lia, 'Globex Corporation', { industry: 'X' }), 403, 'forbidden')).toBe(
      'You may not change companies for Globex Corporation (needs crm:edit for that company or the whole CRM)',
    );
    await refused(service, () => api.updateCompany(t.lia, 'Umbrella Research', { industry: 'X' }), 404, 'not_found');
    await refused(service, () => api.updateCompany(t.vic, 'Acme GmbH', { industry: 'X' }), 403, 'forbidden');
    await refused(service, () => api.updateCompany(t.olga, 'Acme GmbH', { industry: 'X' }), 404, 'not_found');
    expect(await refused(service, () => api.updateCompany(t.adaRead, 'Acme GmbH', { industry: 'X' }), 403, 'forbidden')).toMatch(
      /read access only/,
    );
  });
});

describe('4.8 the company tools answer as REST does', () => {
  it('searches, reads and changes through tools', async () => {
    const found = await callTool(service, t.vic, 'search_companies', { q: 'acme' });
    expect(found.structuredContent).toEqual((await api.searchCompanies(t.vic, { q: 'acme' })).body);
    const read = await callTool(service, t.vic, 'get_company', { id: 'Acme GmbH' });
    expect(read.structuredContent).toEqual((await api.getCompany(t.vic, 'Acme GmbH')).body);
    const changed = await callTool(service, t.sam, 'update_company', { id: 'Acme GmbH', stage: 'former' });
    expect(changed.structuredContent.stage).toBe('former');
    const refusedTool = await callTool(service, t.lia, 'update_company', { id: 'Globex Corporation', stage: 'lead' });
    expect(refusedTool).toEqual({
      isError: true,
      content: [{ type: 'text', text: (await api.updateCompany(t.lia, 'Globex Corporation', { stage: 'lead' })).body.error.message }],
    });
    const missing = await callTool(service, t.lia, 'get_company', { id: 'Umbrella Research' });
    expect(missing.content[0]!.text).toBe((await api.getCompany(t.lia, 'Umbrella Research')).body.error.message);
  });
});
