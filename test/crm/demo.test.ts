import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';

// The demo workspace's CRM slice (examples/demo-workspace.yaml): what `npm start` shows works
// through the API as the demo's own members would use it.

let svc: TestService;
const tokens: Record<string, string> = {};
const get = (who: string, path: string) => svc.request('GET', `/api/v1${path}`, { token: tokens[who] });

beforeAll(async () => {
  svc = await startTestService({ workspace: '../../examples/demo-workspace.yaml' });
  for (const who of ['diego', 'hana', 'olivia', 'jordan']) tokens[who] = await svc.token(`${who}@example.com`);
});
afterAll(() => svc?.close());

describe('demo workspace: the CRM slice', () => {
  it('gives the sales lead his companies, deals and open follow-up', async () => {
    const companies = await get('diego', '/companies');
    expect(companies.body.companies.map((c: { name: string }) => c.name)).toEqual([
      'Acme GmbH',
      'Globex Corporation',
      'Initech',
      'Umbrella Labs',
    ]);
    const acme = await get('diego', '/companies/Acme%20GmbH');
    expect(acme.body.deals.open.map((d: { key: string }) => d.key)).toEqual(['SALES-1']);
    const deal = await get('diego', '/tickets/SALES-1');
    expect(deal.body.deal).toMatchObject({
      company: { name: 'Acme GmbH' },
      value: '24000',
      currency: 'EUR',
      contacts: [
        { name: 'Katrin Vogel', role: 'Decision maker' },
        { name: 'Felix Braun', role: 'Procurement' },
      ],
    });
    const followUps = await get('diego', '/follow-ups');
    expect(followUps.body.follow_ups.map((f: { subject: string }) => f.subject)).toEqual([
      'Send the revised proposal with the annual discount',
    ]);
  });

  it('shows Hana only Acme, and lets marketing read but not change', async () => {
    expect((await get('hana', '/companies')).body.companies.map((c: { name: string }) => c.name)).toEqual(['Acme GmbH']);
    expect((await get('olivia', '/contacts?q=leo')).body.contacts.map((c: { name: string }) => c.name)).toEqual(['Leo Martin']);
    const refused = await svc.request('POST', '/api/v1/contacts', { token: tokens.olivia, body: { name: 'New lead' } });
    expect(refused.status).toBe(403);
    expect((await get('jordan', '/contacts')).status).toBe(403);
  });

  it('moves a deal along the pipeline on its board', async () => {
    const moved = await svc.request('POST', '/api/v1/boards/3/moves', {
      token: tokens.diego,
      body: { key: 'SALES-4', column: 'Qualified' },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ status: { name: 'Qualified' }, deal: { company: { name: 'Umbrella Labs' } } });
  });
});
