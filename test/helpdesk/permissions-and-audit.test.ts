import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { Browser } from '../oauth/support.ts';
import { auditEntries, type FormsApi, formsState, portalKeys, startHelpdesk, type Tokens } from './support.ts';

let service: TestService;
let t: Tokens;
let help: FormsApi;

beforeAll(async () => ({ service, t, help } = await startHelpdesk()));
afterAll(() => service.close());

/** A refused request: its status and code, and nothing stored changed (forms and the audit log). */
async function refused(request: () => Promise<{ status: number; body: any }>, status = 403, code = 'forbidden') {
  const before = await formsState(service);
  const reply = await request();
  expect(reply.status).toBe(status);
  expect(reply.body.error.code).toBe(code);
  expect(await formsState(service)).toEqual(before);
  return reply.body.error.message as string;
}

describe('5.6 request types: read needs project:view', () => {
  it('lets a viewer read, and answers 404 to a member who cannot see the project', async () => {
    expect((await help.get(t.vic, 'get-help')).status).toBe(200);
    expect((await help.get(t.olga, 'get-help')).status).toBe(404);
  });
});

describe('5.6 request types: every change needs helpdesk:forms', () => {
  it('refuses a member without it with 403 and changes nothing', async () => {
    await refused(() => help.create(t.abe, { key: 'abe', name: 'Abe', ticket_type: 'Question' }));
    await refused(() => help.update(t.abe, 'get-help', { name: 'Renamed' }));
    await refused(() => help.order(t.abe, ['report-outage']));
    expect(await refused(() => help.retire(t.vic, 'get-help'))).toMatch(/needs helpdesk:forms/);
  });

  it('is 404, not 403, for a member who cannot see the project', async () => {
    await refused(() => help.update(t.olga, 'get-help', { name: 'Renamed' }), 404, 'not_found');
  });
});

describe('5.3 a read token is refused every change with 403, whatever the member may do', () => {
  it('refuses create, change, order and retire for an administrator’s read token', async () => {
    await refused(() => help.create(t.adaRead, { key: 'r', name: 'R', ticket_type: 'Question' }));
    await refused(() => help.update(t.piaRead, 'get-help', { name: 'Renamed' }));
    await refused(() => help.order(t.piaRead, ['report-outage']));
    expect(await refused(() => help.retire(t.adaRead, 'get-help'))).toMatch(/read access only/);
  });
});

describe('4.4 making a form open, or changing a form that is open, needs helpdesk:publish as well', () => {
  it('refuses creating an open form without publish; allows it with', async () => {
    expect(await refused(() => help.create(t.fay, { key: 'public', name: 'Public', ticket_type: 'Question', submission: 'open' }))).toMatch(
      /helpdesk:publish/,
    );
    const reply = await help.create(t.pia, { key: 'public', name: 'Public', ticket_type: 'Question', submission: 'open' });
    expect(reply.status, reply.text).toBe(201);
  });

  it('refuses making an authenticated form open without publish', async () => {
    expect((await help.create(t.fay, { key: 'members', name: 'Members only', ticket_type: 'Question' })).status).toBe(201);
    await refused(() => help.update(t.fay, 'members', { submission: 'open' }));
    const reply = await help.update(t.pia, 'members', { submission: 'open' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.submission).toBe('open');
  });

  it('refuses any change to an open form without publish, even alongside taking it off the public', async () => {
    await refused(() => help.update(t.fay, 'report-outage', { help_text: 'Tell us what broke' }));
    await refused(() => help.update(t.fay, 'report-outage', { hidden: true }));
    await refused(() => help.update(t.fay, 'report-outage', { submission: 'authenticated', name: 'Outage' }));
    expect((await help.update(t.pia, 'report-outage', { help_text: 'Tell us what broke' })).status).toBe(200);
  });

  it('lets a change that changes nothing through with helpdesk:forms alone, writing nothing', async () => {
    const before = await formsState(service);
    const reply = await help.update(t.fay, 'report-outage', { submission: 'open', name: 'Report an outage' });
    expect(reply.status, reply.text).toBe(200);
    expect(await formsState(service)).toEqual(before);
  });

  it('refuses moving an open form in the portal order without publish; moving others needs forms alone', async () => {
    expect(await portalKeys(service, t.vic)).toEqual(['get-help', 'report-outage', 'public', 'members']);
    await refused(() => help.order(t.fay, ['public']));
    // get-help and report-outage keep their places, so no open form moves
    expect((await help.order(t.fay, ['get-help', 'report-outage'])).status).toBe(200);
    expect((await help.order(t.pia, ['members', 'public'])).status).toBe(200);
    expect(await portalKeys(service, t.vic)).toEqual(['members', 'public', 'get-help', 'report-outage']);
  });
});

describe('4.4 taking a form off the public or retiring it needs helpdesk:forms alone', () => {
  it('lets a forms editor take an open form off the public', async () => {
    const reply = await help.update(t.fay, 'members', { submission: 'authenticated' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.submission).toBe('authenticated');
  });

  it('lets a forms editor retire an open form', async () => {
    const reply = await help.retire(t.fay, 'public');
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ submission: 'open', archived: true });
  });
});

describe('4.4 every change is written to the workspace audit log with the agent’s name', () => {
  it('records create, change, order and retire with time, member, agent, action, target and what changed', async () => {
    expect((await help.create(t.pia, { key: 'audited', name: 'Audited', ticket_type: 'Question', portal_group: 'Logs' })).status).toBe(201);
    expect((await help.update(t.fay, 'audited', { name: 'Audited form', fields: [{ field: 'impact' }] })).status).toBe(200);
    expect((await help.retire(t.ada, 'audited')).status).toBe(200);
    const entries = await auditEntries(service, 'HELP request type audited');
    expect(entries.map((e) => [e.action, e.member, e.via])).toEqual([
      ['request_type.created', 'Pia Publisher', "pia's agent"],
      ['request_type.updated', 'Fay Forms', "fay's agent"],
      ['request_type.retired', 'Ada Admin', "ada's agent"],
    ]);
    for (const entry of entries) expect(typeof entry.at).toBe('string');
    expect(entries[0]!.changes).toEqual(
      expect.arrayContaining([
        { field: 'key', from: null, to: 'audited' },
        { field: 'ticket_type', from: null, to: 'Question' },
        { field: 'portal_group', from: null, to: 'Logs' },
      ]),
    );
    expect(entries[1]!.changes).toEqual([
      { field: 'name', from: 'Audited', to: 'Audited form' },
      {
        field: 'fields',
        from: [
          { field: 'summary', displayed: true, required: true, label: null },
          { field: 'description', displayed: true, required: false, label: null },
        ],
        to: [
          { field: 'summary', displayed: true, required: true, label: null },
          { field: 'impact', displayed: true, required: false, label: null },
        ],
      },
    ]);
    expect(entries[2]!.changes).toEqual([{ field: 'archived', from: false, to: true }]);
  });

  it('records a reorder of the project’s request types with the order before and after', async () => {
    const before = await portalKeys(service, t.vic);
    expect((await help.order(t.pia, ['get-help'])).status).toBe(200);
    const entry = (await auditEntries(service, 'HELP request types')).at(-1);
    expect(entry).toMatchObject({ action: 'request_types.reordered', member: 'Pia Publisher', via: "pia's agent" });
    expect(entry!.changes).toEqual([{ field: 'order', from: before, to: ['get-help', ...before.filter((k) => k !== 'get-help')] }]);
  });

  it('writes no entry for a refused request', async () => {
    await refused(() => help.update(t.fay, 'report-outage', { name: 'Sneaky' }));
    await refused(() => help.create(t.fay, { key: 'audited', name: 'Duplicate key', ticket_type: 'Question' }), 422, 'invalid');
  });
});

describe('the audit log page: administrators read the workspace audit log in the browser', () => {
  it('lists entries newest first with member, agent, action and target', async () => {
    expect((await help.create(t.pia, { key: 'paged', name: 'Paged form', ticket_type: 'Question' })).status).toBe(201);
    const browser = new Browser(service);
    expect((await browser.logIn('ada@example.com', 'ada-password')).status).toBe(303);
    const page = await browser.get('/admin/audit');
    expect(page.status).toBe(200);
    const firstRow = page.text.split('<tbody>')[1]!.split('</tr>')[0]!;
    expect(firstRow).toContain('Pia Publisher');
    expect(firstRow).toContain('pia&#39;s agent');
    expect(firstRow).toContain('request_type.created');
    expect(firstRow).toContain('HELP request type paged');
  });

  it('refuses a member who is not an administrator', async () => {
    const browser = new Browser(service);
    expect((await browser.logIn('abe@example.com', 'abe-password')).status).toBe(303);
    const page = await browser.get('/admin/audit');
    expect(page.status).toBe(403);
    expect(page.text).not.toContain('request_type.');
  });
});

describe('what my agents did: form changes made through a member’s tokens are listed with the ticket changes', () => {
  it('shows the audit entry under the agent’s name to that member only', async () => {
    expect((await help.create(t.ada, { key: 'by-agent', name: 'By an agent', ticket_type: 'Question' })).status).toBe(201);
    const ada = new Browser(service);
    expect((await ada.logIn('ada@example.com', 'ada-password')).status).toBe(303);
    const page = await ada.get('/agents/activity');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(
      /ada&#39;s agent<\/td><td class="what" data-label="What">request type created: HELP request type by-agent<\/td>/,
    );
    const abe = new Browser(service);
    expect((await abe.logIn('abe@example.com', 'abe-password')).status).toBe(303);
    expect((await abe.get('/agents/activity')).text).not.toContain('by-agent');
  });
});
