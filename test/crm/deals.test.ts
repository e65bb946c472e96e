import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSwitch } from '../../src/core/settings.ts';
import type { TestService } from '../helpers/service.ts';
import { callTool, companyId, contactId, historyOf, refused, startCrm, type CrmApi, type Tokens } from './support.ts';

// Spec 1, 2.4 (Deal), 4.2 (`company`) and 4.7 (Deals): deals are tickets of a sales project, found,
// read, created, changed and moved through the ticket and board operations, with their CRM side.

let service: TestService;
let t: Tokens;
let api: CrmApi;
let acme: string;

beforeAll(async () => {
  ({ service, t, api } = await startCrm());
  acme = await companyId(service, 'Acme GmbH');
});
afterAll(() => service?.close());

const ticket = (token: string, key: string) => api.call('GET', `/tickets/${key}`, token);
const createTicket = (token: string, body: unknown) => api.call('POST', '/tickets', token, body);
const patchTicket = (token: string, key: string, body: unknown) => api.call('PATCH', `/tickets/${key}`, token, body);
const transition = (token: string, key: string, body: unknown) => api.call('POST', `/tickets/${key}/transitions`, token, body);
const move = (token: string, body: unknown) => api.call('POST', '/boards/1/moves', token, body);

describe('2.4 Deal: on a sales ticket, to a member who may see the CRM', () => {
  it('shows SALES-1’s deal: company, value in its own currency, close, probability, people with roles', async () => {
    const reply = await ticket(t.vic, 'SALES-1');
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.deal).toEqual({
      company: { id: acme, name: 'Acme GmbH' },
      value: '24000',
      currency: 'EUR',
      expected_close: '2027-01-31',
      probability: '75%',
      lost_reason: null,
      contacts: [
        { id: await contactId(service, 'Anna Becker'), name: 'Anna Becker', role: 'Decision maker' },
        { id: await contactId(service, 'Gina Global'), name: 'Gina Global', role: 'Reference' },
      ],
    });
  });

  it('shows a deal with no company and no values as nulls and no people', async () => {
    expect((await ticket(t.vic, 'SALES-3')).body.deal).toEqual({
      company: null,
      value: null,
      currency: null,
      expected_close: null,
      probability: null,
      lost_reason: null,
      contacts: [],
    });
  });

  it('leaves `deal` out for a member the CRM is closed to, and for a deal of a company the member may not see', async () => {
    const olga = await ticket(t.olga, 'SALES-1');
    expect(olga.status).toBe(200);
    expect(olga.body).not.toHaveProperty('deal');
    // Lia sees Acme and Globex only: a deal with no company needs the whole CRM
    expect((await ticket(t.lia, 'SALES-1')).body.deal.company.name).toBe('Acme GmbH');
    expect((await ticket(t.lia, 'SALES-3')).body).not.toHaveProperty('deal');
  });

  it('carries no `deal` on a ticket of another kind of project', async () => {
    const created = await createTicket(t.mia, { project: 'SUP', summary: 'Not a deal' });
    expect(created.status, created.text).toBe(201);
    expect(created.body).not.toHaveProperty('deal');
  });
});

describe('4.2 `company` on POST /tickets and PATCH /tickets/{key}: by name or id, or null', () => {
  it('creates a deal with a company, shows it on the company, and records it in the ticket’s history', async () => {
    const reply = await createTicket(t.sam, {
      project: 'SALES',
      summary: 'Globex expansion',
      company: 'globex corporation',
      fields: { deal_value: '9000.50', deal_currency: 'USD' },
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.deal).toMatchObject({ company: { name: 'Globex Corporation' }, value: '9000.5', currency: 'USD', contacts: [] });
    const globex = await api.getCompany(t.sam, 'Globex Corporation');
    expect(globex.body.deals.open.map((d: { key: string }) => d.key)).toContain(reply.body.key);
    const id = (await service.db.selectFrom('tickets').select('id').where('key', '=', reply.body.key).executeTakeFirstOrThrow()).id;
    const history = await historyOf(service, 'ticket', id);
    expect(history[0]!.changes).toContainEqual({ field: 'company', from: null, to: 'Globex Corporation' });
  });

  it('changes a deal’s company by id, and clears it with null', async () => {
    const key = (await createTicket(t.sam, { project: 'SALES', summary: 'Moving deal' })).body.key;
    const set = await patchTicket(t.sam, key, { company: acme });
    expect(set.status, set.text).toBe(200);
    expect(set.body.deal.company).toEqual({ id: acme, name: 'Acme GmbH' });
    const cleared = await patchTicket(t.sam, key, { company: null });
    expect(cleared.body.deal.company).toBeNull();
  });

  it('refuses a company on a ticket of another kind of project, and a company that matches nothing, creating nothing', async () => {
    expect(await refused(service, () => createTicket(t.mia, { project: 'SUP', summary: 'X', company: 'Acme GmbH' }), 422, 'invalid')).toBe(
      '/company: only deals have a company, and project SUP is a software project, not a sales one',
    );
    expect(
      await refused(service, () => createTicket(t.sam, { project: 'SALES', summary: 'X', company: 'Acme Inc' }), 422, 'invalid'),
    ).toMatch(/^\/company: no company "Acme Inc"; companies are "Acme GmbH"/);
    expect(await refused(service, () => patchTicket(t.sam, 'SALES-3', { summary: 'Renamed', company: 'Initech' }), 422, 'invalid')).toBe(
      '/company: Initech is archived; archived companies take no new contacts or deals',
    );
  });

  it('needs Edit the CRM for the company it puts a deal on, and for the company it takes a deal off', async () => {
    expect(
      await refused(service, () => patchTicket(t.lia, 'SALES-3', { summary: 'Renamed', company: 'Globex Corporation' }), 403, 'forbidden'),
    ).toBe('You may not put deals on companies for Globex Corporation (needs crm:edit for that company or the whole CRM)');
    expect(
      await refused(service, () => patchTicket(t.lia, 'SALES-2', { summary: 'Renamed', company: 'Acme GmbH' }), 403, 'forbidden'),
    ).toBe('You may not take deals off companies for Globex Corporation (needs crm:edit for that company or the whole CRM)');
    await refused(service, () => createTicket(t.lia, { project: 'SALES', summary: 'X', company: 'Umbrella Labs' }), 422, 'invalid');
    const ok = await patchTicket(t.lia, 'SALES-3', { company: 'Acme GmbH' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.deal.company.name).toBe('Acme GmbH');
  });

  it('answers 403 feature_disabled for `company` while the CRM is switched off, and shows no deal', async () => {
    await setSwitch(service.db, 'crm', false);
    try {
      expect(
        await refused(
          service,
          () => createTicket(t.sam, { project: 'SALES', summary: 'X', company: 'Acme GmbH' }),
          403,
          'feature_disabled',
        ),
      ).toMatch(/CRM module is switched off/);
      expect((await ticket(t.sam, 'SALES-1')).body).not.toHaveProperty('deal');
    } finally {
      await setSwitch(service.db, 'crm', true);
    }
    expect((await ticket(t.sam, 'SALES-1')).body.deal.company.name).toBe('Acme GmbH');
  });
});

describe('4.7 losing a deal is the transition Lost with `fields` containing lost_reason', () => {
  it('refuses Lost without a reason and changes nothing', async () => {
    const message = await refused(service, () => transition(t.sam, 'SALES-2', { transition: 'Lost' }), 422, 'invalid');
    expect(message).toBe('/fields/lost_reason: Lost asks for lost_reason');
    expect((await ticket(t.sam, 'SALES-2')).body.status.name).toBe('Qualified');
  });

  it('loses the deal with a reason, shown as lost_reason and among the company’s closed deals', async () => {
    const reply = await transition(t.sam, 'SALES-2', { transition: 'Lost', fields: { lost_reason: 'Went with a competitor' } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.status).toEqual({ name: 'Lost', category: 'done' });
    expect(reply.body.deal.lost_reason).toBe('Went with a competitor');
    const globex = (await api.getCompany(t.sam, 'Globex Corporation')).body.deals;
    expect(globex.closed.map((d: { key: string }) => d.key)).toContain('SALES-2');
    expect(globex.open.map((d: { key: string }) => d.key)).not.toContain('SALES-2');
  });
});

describe('4.7 a board move moves a deal along the pipeline', () => {
  it('moves a deal into the next column, refuses Lost without a reason, and takes it with one', async () => {
    const key = (await createTicket(t.sam, { project: 'SALES', summary: 'Board deal', company: 'Acme GmbH' })).body.key;
    const qualified = await move(t.sam, { key, column: 'Qualified' });
    expect(qualified.status, qualified.text).toBe(200);
    expect(qualified.body).toMatchObject({ status: { name: 'Qualified' }, deal: { company: { name: 'Acme GmbH' } } });
    await refused(service, () => move(t.sam, { key, column: 'Lost' }), 422, 'invalid');
    const lost = await move(t.sam, { key, column: 'Lost', fields: { lost_reason: 'No budget' } });
    expect(lost.status, lost.text).toBe(200);
    expect(lost.body.deal.lost_reason).toBe('No budget');
  });
});

describe('4.8 deals through the ticket tools answer as REST does', () => {
  it('creates a deal with a company and reads its Deal through tools', async () => {
    const created = await callTool(service, t.sam, 'create_ticket', { project: 'SALES', summary: 'Tool deal', company: 'Acme GmbH' });
    expect(created.isError, created.content[0]!.text).toBe(false);
    expect(created.structuredContent.deal.company.name).toBe('Acme GmbH');
    const read = await callTool(service, t.vic, 'get_ticket', { key: created.structuredContent.key });
    expect(read.structuredContent).toEqual((await ticket(t.vic, created.structuredContent.key)).body);
    const wrong = await callTool(service, t.sam, 'update_ticket', { key: created.structuredContent.key, company: 'Nope' });
    expect(wrong.isError).toBe(true);
    expect(wrong.content[0]!.text).toBe((await patchTicket(t.sam, created.structuredContent.key, { company: 'Nope' })).body.error.message);
  });
});
