import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSwitch } from '../../src/core/settings.ts';
import type { TestService } from '../helpers/service.ts';
import { formsApi, type FormsApi, formsState, portalKeys, startHelpdesk, type Tokens } from './support.ts';

let service: TestService;
let t: Tokens;
let help: FormsApi;

beforeAll(async () => ({ service, t, help } = await startHelpdesk()));
afterAll(() => service.close());

describe('4.4 GET /projects/{key}/request-types: RequestTypeList in portal order', () => {
  it('lists the forms with their fields, ticket type and position, and what the caller may do', async () => {
    const reply = await help.list(t.vic);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ project: 'HELP', can_manage: false, can_publish: false });
    const [getHelp, outage] = reply.body.request_types;
    expect(getHelp).toEqual({
      id: expect.any(String),
      key: 'get-help',
      name: 'Get help',
      description: 'Ask us anything',
      help_text: null,
      portal_group: 'General',
      hidden: false,
      submission: 'authenticated',
      ticket_type: 'Question',
      position: 0,
      archived: false,
      fields: [
        { field: 'summary', name: 'Summary', displayed: true, required: true, label: 'What do you need?' },
        { field: 'description', name: 'Description', displayed: true, required: false, label: null },
        { field: 'impact', name: 'Impact', displayed: true, required: true, label: null },
      ],
    });
    expect(outage).toMatchObject({ key: 'report-outage', submission: 'open', ticket_type: 'Incident', position: 1 });
  });

  it.each([
    ['pia', true, true],
    ['fay', true, false],
    ['ada', true, true],
    ['abe', false, false],
    ['piaRead', false, false],
  ] as const)('can_manage and can_publish for %s are %s and %s', async (who, manage, publish) => {
    const reply = await help.list(t[who]);
    expect(reply.body.can_manage).toBe(manage);
    expect(reply.body.can_publish).toBe(publish);
  });

  it('is 404 for a member who cannot see the project', async () => {
    const reply = await help.list(t.olga);
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe('not_found');
  });
});

describe('4.4 a form is named in paths by key, name or id (case-insensitive)', () => {
  it('finds the same form by each', async () => {
    const byKey = await help.get(t.vic, 'GET-HELP');
    expect(byKey.status, byKey.text).toBe(200);
    const byName = await help.get(t.vic, '  get help ');
    const byId = await help.get(t.vic, byKey.body.id);
    expect(byName.body).toEqual(byKey.body);
    expect(byId.body).toEqual(byKey.body);
  });

  it('refuses a name matching nothing with 422 invalid listing the forms', async () => {
    const reply = await help.get(t.vic, 'get-hlep');
    expect(reply.status).toBe(422);
    expect(reply.body.error).toEqual({
      code: 'invalid',
      message: '/request_type: no request type "get-hlep"; request types are "get-help", "report-outage"',
    });
  });
});

describe('4.4 POST /projects/{key}/request-types: 201, at the end of the portal', () => {
  it('creates a form with defaults: authenticated, shown, summary and description', async () => {
    const reply = await help.create(t.fay, { key: 'new_laptop', name: 'Request a laptop', ticket_type: 'service request' });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({
      key: 'new_laptop',
      name: 'Request a laptop',
      ticket_type: 'Service request',
      submission: 'authenticated',
      hidden: false,
      description: null,
      portal_group: null,
      archived: false,
      position: 2,
      fields: [
        { field: 'summary', name: 'Summary', displayed: true, required: true, label: null },
        { field: 'description', name: 'Description', displayed: true, required: false, label: null },
      ],
    });
    expect((await help.get(t.vic, 'new_laptop')).body).toEqual(reply.body);
  });

  it('puts the summary first when the fields leave it out, and takes custom fields of the type', async () => {
    const reply = await help.create(t.fay, {
      key: 'broken-screen',
      name: 'Broken screen',
      ticket_type: 'Incident',
      help_text: 'Tell us which machine',
      fields: [
        { field: 'ASSET_TAG', required: true, label: 'Tag' },
        { field: 'priority', displayed: false },
      ],
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.fields).toEqual([
      { field: 'summary', name: 'Summary', displayed: true, required: true, label: null },
      { field: 'asset_tag', name: 'Asset tag', displayed: true, required: true, label: 'Tag' },
      { field: 'priority', name: 'Priority', displayed: false, required: false, label: null },
    ]);
  });

  it('refuses a key that is not letters, digits, dashes and underscores', async () => {
    const reply = await help.create(t.fay, { key: 'has space', name: 'Spaced', ticket_type: 'Question' });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toMatch(/^\/key: /);
  });

  it('refuses a key the project already has (any case) with 422 invalid, and allows it in another project', async () => {
    const reply = await help.create(t.fay, { key: 'GET-HELP', name: 'Another', ticket_type: 'Question' });
    expect(reply.status).toBe(422);
    expect(reply.body.error).toEqual({ code: 'invalid', message: '/key: project HELP already has a request type with key "GET-HELP"' });
    const desk = await formsApi(service, 'DESK').create(t.pia, { key: 'get-help', name: 'Get help', ticket_type: 'Question' });
    expect(desk.status, desk.text).toBe(201);
  });

  it('refuses a name an active form has', async () => {
    const reply = await help.create(t.fay, { key: 'other', name: 'get HELP', ticket_type: 'Question' });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toMatch(/^\/name: /);
  });

  it('refuses a ticket type the project does not use, listing those it does (sub-task types are not offered)', async () => {
    const reply = await help.create(t.fay, { key: 'bugs', name: 'Bugs', ticket_type: 'Bug' });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toBe('/ticket_type: no ticket type "Bug"; ticket types are "Question", "Incident", "Service request"');
    expect((await help.create(t.fay, { key: 'subs', name: 'Subs', ticket_type: 'Sub-task' })).status).toBe(422);
  });

  it('refuses an unknown field, listing the fields the type has', async () => {
    const reply = await help.create(t.fay, { key: 'q2', name: 'Q2', ticket_type: 'Question', fields: [{ field: 'asset_tag' }] });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toBe(
      '/fields/0/field: no field "asset_tag"; fields are "summary", "description", "priority", "impact"',
    );
  });

  it('refuses a field twice, a hidden required field, and a summary sent as hidden or optional', async () => {
    const twice = await help.create(t.fay, {
      key: 'q3',
      name: 'Q3',
      ticket_type: 'Question',
      fields: [{ field: 'impact' }, { field: 'Impact' }],
    });
    expect(twice.body.error.message).toMatch(/^\/fields\/1\/field: "impact" is on the form twice/);
    const hiddenRequired = await help.create(t.fay, {
      key: 'q3',
      name: 'Q3',
      ticket_type: 'Question',
      fields: [{ field: 'impact', displayed: false, required: true }],
    });
    expect(hiddenRequired.body.error.message).toMatch(/^\/fields\/0\/required: /);
    const summary = await help.create(t.fay, {
      key: 'q3',
      name: 'Q3',
      ticket_type: 'Question',
      fields: [{ field: 'summary', required: false }],
    });
    expect(summary.status).toBe(422);
    expect(summary.body.error.message).toMatch(/^\/fields\/0: the summary is always displayed and required/);
    expect((await help.get(t.vic, 'q3')).status).toBe(422);
  });

  it('is 404 for a project that is not a helpdesk project: only helpdesk projects have forms', async () => {
    const api = formsApi(service, 'CORE');
    for (const reply of [
      await api.list(t.pia),
      await api.create(t.pia, { key: 'x', name: 'X', ticket_type: 'Task' }),
      await api.retire(t.pia, 'x'),
    ]) {
      expect(reply.status).toBe(404);
      expect(reply.body.error.message).toMatch(/only helpdesk projects have request types/);
    }
  });
});

describe('4.4 PATCH /projects/{key}/request-types/{request_type}: only what is sent changes', () => {
  it('changes name, key and help text and keeps the rest', async () => {
    const before = await help.get(t.vic, 'new_laptop');
    const reply = await help.update(t.fay, 'Request a laptop', { name: 'Order a laptop', key: 'laptop', help_text: 'Pick a model' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ ...before.body, name: 'Order a laptop', key: 'laptop', help_text: 'Pick a model' });
    expect((await help.get(t.vic, 'laptop')).body.id).toBe(before.body.id);
  });

  it('replaces the fields when sent, and checks kept fields against a new ticket type', async () => {
    const fields = await help.update(t.fay, 'laptop', { fields: [{ field: 'impact' }] });
    expect(fields.body.fields.map((f: { field: string }) => f.field)).toEqual(['summary', 'impact']);
    const narrow = await help.update(t.fay, 'broken-screen', { ticket_type: 'Question' });
    expect(narrow.status).toBe(422);
    expect(narrow.body.error.message).toMatch(/^\/ticket_type: the form shows "asset_tag"/);
    expect((await help.get(t.vic, 'broken-screen')).body.ticket_type).toBe('Incident');
  });

  it('refuses taking a key another form has', async () => {
    const reply = await help.update(t.fay, 'laptop', { key: 'Get-Help' });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toMatch(/^\/key: /);
  });
});

describe('4.4 POST /projects/{key}/request-types/order: named forms first, the rest in their present order', () => {
  it('puts the named forms first in that order', async () => {
    expect(await portalKeys(service, t.vic)).toEqual(['get-help', 'report-outage', 'laptop', 'broken-screen']);
    const reply = await help.order(t.pia, ['broken-screen', 'LAPTOP']);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.request_types.map((f: { key: string; position: number }) => [f.key, f.position])).toEqual([
      ['broken-screen', 0],
      ['laptop', 1],
      ['get-help', 2],
      ['report-outage', 3],
    ]);
    expect(await portalKeys(service, t.vic)).toEqual(['broken-screen', 'laptop', 'get-help', 'report-outage']);
  });

  it('names forms by name or id too, and refuses one named twice or matching nothing', async () => {
    const getHelp = (await help.get(t.vic, 'get-help')).body.id;
    expect((await help.order(t.pia, [getHelp, 'Order a laptop'])).status).toBe(200);
    expect(await portalKeys(service, t.vic)).toEqual(['get-help', 'laptop', 'broken-screen', 'report-outage']);
    const twice = await help.order(t.pia, ['laptop', 'Order a laptop']);
    expect(twice.status).toBe(422);
    expect(twice.body.error.message).toMatch(/^\/order\/1: request type "laptop" is named twice/);
    expect((await help.order(t.pia, ['nope'])).body.error.message).toMatch(/^\/order\/0: no request type "nope"/);
    expect((await help.order(t.pia, [])).status).toBe(422);
  });
});

describe('3.4 DELETE retires a form: archived, off the list, still readable', () => {
  it('answers the form with archived true; the list leaves it out unless include_archived=true', async () => {
    const reply = await help.retire(t.fay, 'broken-screen');
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ key: 'broken-screen', archived: true, position: 3 });
    expect(await portalKeys(service, t.vic)).toEqual(['get-help', 'laptop', 'report-outage']);
    expect(await portalKeys(service, t.vic, 'HELP', '?include_archived=true')).toEqual([
      'get-help',
      'laptop',
      'report-outage',
      'broken-screen',
    ]);
    const read = await help.get(t.vic, 'Broken screen');
    expect(read.status).toBe(200);
    expect(read.body.archived).toBe(true);
  });

  it('retiring again changes nothing; a retired form is not in the order', async () => {
    const state = await formsState(service);
    expect((await help.retire(t.fay, 'broken-screen')).body.archived).toBe(true);
    expect(await formsState(service)).toEqual(state);
    expect((await help.order(t.pia, ['broken-screen'])).status).toBe(422);
  });

  it('frees the name for a new form, while the key stays taken', async () => {
    expect((await help.create(t.fay, { key: 'broken-screen-2', name: 'Broken screen', ticket_type: 'Incident' })).status).toBe(201);
    expect((await help.create(t.fay, { key: 'broken-screen', name: 'Whatever', ticket_type: 'Incident' })).status).toBe(422);
    // the active form's name wins over the retired one's
    expect((await help.get(t.vic, 'broken screen')).body.key).toBe('broken-screen-2');
  });
});

describe('module switch: the helpdesk switched off is 403 feature_disabled for every forms operation', () => {
  it('refuses reads and changes, and they answer again once back on', async () => {
    const state = await formsState(service);
    await setSwitch(service.db, 'helpdesk', false);
    try {
      for (const reply of [
        await help.list(t.pia),
        await help.get(t.pia, 'get-help'),
        await help.create(t.pia, { key: 'off', name: 'Off', ticket_type: 'Question' }),
        await help.update(t.pia, 'get-help', { name: 'Off' }),
        await help.order(t.pia, ['laptop']),
        await help.retire(t.pia, 'get-help'),
      ]) {
        expect(reply.status).toBe(403);
        expect(reply.body.error.code).toBe('feature_disabled');
        expect(reply.body.error.message).toMatch(/helpdesk/);
      }
    } finally {
      await setSwitch(service.db, 'helpdesk', true);
    }
    expect(await formsState(service)).toEqual(state);
    expect((await help.list(t.pia)).status).toBe(200);
  });
});

describe('4.4 keys stay unique and the portal order stays whole when forms are created at once', () => {
  it('accepts one of two creates with the same key, and gives simultaneous new forms distinct places', async () => {
    const same = await Promise.all([1, 2].map((n) => help.create(t.pia, { key: 'race', name: `Race ${n}`, ticket_type: 'Question' })));
    expect(same.map((r) => r.status).sort()).toEqual([201, 422]);
    const many = await Promise.all(
      [1, 2, 3].map((n) => help.create(t.pia, { key: `burst-${n}`, name: `Burst ${n}`, ticket_type: 'Question' })),
    );
    expect(many.map((r) => r.status)).toEqual([201, 201, 201]);
    const list = (await help.list(t.vic)).body.request_types as { key: string; position: number }[];
    expect(list.map((f) => f.position)).toEqual(list.map((_, i) => i));
    expect(
      list
        .slice(-3)
        .map((f) => f.key)
        .sort(),
    ).toEqual(['burst-1', 'burst-2', 'burst-3']);
  });
});
