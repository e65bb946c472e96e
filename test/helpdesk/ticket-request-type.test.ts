import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSwitch } from '../../src/core/settings.ts';
import type { TestService } from '../helpers/service.ts';
import { Browser } from '../oauth/support.ts';
import { formsApi, type FormsApi, startHelpdesk, type Tokens } from './support.ts';

let service: TestService;
let t: Tokens;
let help: FormsApi;

beforeAll(async () => ({ service, t, help } = await startHelpdesk()));
afterAll(() => service.close());

const create = (body: Record<string, unknown>, token = t.abe) => service.request('POST', '/api/v1/tickets', { token, body });
const read = async (key: string) => (await service.request('GET', `/api/v1/tickets/${key}`, { token: t.abe })).body;
const ticketCount = async () => (await service.db.selectFrom('tickets').select('id').execute()).length;

describe('4.2 POST /tickets request_type: an active form of a helpdesk project, by key or name', () => {
  it('raises a ticket through a form by key; with type left out the ticket gets the form’s ticket type', async () => {
    const reply = await create({ project: 'HELP', summary: 'Everything is down', request_type: 'REPORT-OUTAGE' });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ type: 'Incident', request_type: 'Report an outage' });
    expect((await read(reply.body.key)).request_type).toBe('Report an outage');
  });

  it('takes a form by name, and an explicit type wins over the form’s', async () => {
    const reply = await create({ project: 'HELP', summary: 'How do I log in?', request_type: 'get help', type: 'Service request' });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ type: 'Service request', request_type: 'Get help' });
  });

  it('leaves request_type null and the project’s first type when no form is given', async () => {
    const reply = await create({ project: 'HELP', summary: 'Plain ticket' });
    expect(reply.body).toMatchObject({ type: 'Question', request_type: null });
  });

  it('refuses a form matching nothing with 422 invalid listing the active forms, creating nothing', async () => {
    const before = await ticketCount();
    const reply = await create({ project: 'HELP', summary: 'Lost', request_type: 'get-hlp' });
    expect(reply.status).toBe(422);
    expect(reply.body.error).toEqual({
      code: 'invalid',
      message: '/request_type: no request type "get-hlp"; active request types are "get-help", "report-outage"',
    });
    expect(await ticketCount()).toBe(before);
  });

  it('refuses a retired form, creating nothing', async () => {
    expect((await help.create(t.pia, { key: 'old-form', name: 'Old form', ticket_type: 'Question' })).status).toBe(201);
    expect((await help.retire(t.pia, 'old-form')).status).toBe(200);
    const before = await ticketCount();
    const reply = await create({ project: 'HELP', summary: 'Too late', request_type: 'Old form' });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toMatch(/^\/request_type: request type "old-form" is retired; active request types are/);
    expect(await ticketCount()).toBe(before);
  });

  it('refuses a request type in a project that is not a helpdesk project', async () => {
    const reply = await create({ project: 'CORE', summary: 'Software', request_type: 'get-help' });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toBe('/request_type: project CORE is a software project; only helpdesk projects have request types');
  });

  it('does not take another helpdesk project’s form', async () => {
    expect((await formsApi(service, 'DESK').create(t.pia, { key: 'desk-only', name: 'Desk only', ticket_type: 'Question' })).status).toBe(
      201,
    );
    expect((await create({ project: 'HELP', summary: 'Wrong desk', request_type: 'desk-only' })).status).toBe(422);
  });

  it('refuses a request type while the helpdesk module is switched off (403 feature_disabled)', async () => {
    await setSwitch(service.db, 'helpdesk', false);
    try {
      const reply = await create({ project: 'HELP', summary: 'Off', request_type: 'get-help' });
      expect(reply.status).toBe(403);
      expect(reply.body.error.code).toBe('feature_disabled');
      expect((await create({ project: 'HELP', summary: 'Without a form' })).status).toBe(201);
    } finally {
      await setSwitch(service.db, 'helpdesk', true);
    }
  });
});

describe('3.4 requests already raised keep their form: a retired or renamed form still shows', () => {
  it('shows the new name after a rename, and keeps it after the form is retired', async () => {
    const key = (await create({ project: 'HELP', summary: 'Raised before the rename', request_type: 'get-help' })).body.key;
    expect((await help.update(t.pia, 'get-help', { name: 'Ask a question' })).status).toBe(200);
    expect((await read(key)).request_type).toBe('Ask a question');
    expect((await help.retire(t.pia, 'get-help')).status).toBe(200);
    expect((await read(key)).request_type).toBe('Ask a question');
  });

  it('shows the request type on the ticket page', async () => {
    const raised = (await create({ project: 'HELP', summary: 'Printer on fire', request_type: 'REPORT-OUTAGE' })).body;
    const plain = (await create({ project: 'HELP', summary: 'Raised without a form' })).body;
    const browser = new Browser(service);
    expect((await browser.logIn('abe@example.com', 'abe-password')).status).toBe(303);
    const page = await browser.get(new URL(raised.url).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<dt>Request type<\/dt><dd>Report an outage<\/dd>/);
    expect((await browser.get(new URL(plain.url).pathname)).text).not.toContain('Request type');
  });
});
