import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogLines } from '../helpers/log-capture.ts';
import type { TestService } from '../helpers/service.ts';
import { callTool, startCrm, type CrmApi, type Tokens } from './support.ts';

// Spec 4.7 and ADR 0015: nothing about a contact (names, emails, phones, bodies) is written to the
// server's log. A CRM run at debug level through REST and MCP — creates, changes, searches by
// address, refusals, a duplicate, interactions — and then every line the service wrote is scanned.

const NAME = 'Zebulon Quixotic-Privatesson';
const EMAIL = 'zebulon.private@secret-domain.example';
const EMAIL_2 = 'zq.second@secret-domain.example';
const PHONE = '+99 555 424242';
const NOTES = 'Prefers calls after lunch, allergic to marzipan';
const SUBJECT = 'Confidential renewal chat with Zebulon';
const BODY = 'He mentioned the merger with Octothorpe Holdings';
const SECRETS = [
  NAME,
  'Zebulon',
  'Privatesson',
  EMAIL,
  'zebulon.private',
  'secret-domain',
  EMAIL_2,
  PHONE,
  '424242',
  NOTES,
  'marzipan',
  SUBJECT,
  BODY,
  'Octothorpe',
];

let service: TestService;
let t: Tokens;
let api: CrmApi;
const log = captureLogLines();

beforeAll(async () => {
  ({ service, t, api } = await startCrm({ logStream: log.sink, logLevel: 'debug' }));
});
afterAll(() => service?.close());

describe('4.7 nothing about a contact is written to the server’s log', () => {
  it('keeps names, addresses, phones, notes, subjects and bodies out of every log line of a CRM run', async () => {
    const created = await api.createContact(t.sam, { name: NAME, company: 'Acme GmbH', email: EMAIL, phone: PHONE, notes: NOTES });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect((await api.updateContact(t.sam, id, { name: `${NAME} Jr`, notes: `${NOTES}!` })).status).toBe(200);
    expect((await api.addEmail(t.sam, id, { address: EMAIL_2, primary: true })).status).toBe(201);
    expect((await api.addPhone(t.sam, id, { number: `${PHONE} 2` })).status).toBe(201);
    expect((await api.searchContacts(t.sam, { q: EMAIL })).body.total).toBe(1);
    expect((await api.getContact(t.sam, id)).status).toBe(200);
    // refusals and a duplicate, whose answers name the field and perhaps the value: never the log
    expect((await api.createContact(t.sam, { name: NAME, email: EMAIL.toUpperCase() })).status).toBe(422);
    expect((await api.createContact(t.olga, { name: NAME, email: EMAIL })).status).toBe(403);
    expect((await api.createContact(t.sam, { name: NAME, company: `${NAME} Ltd` })).status).toBe(422);
    expect((await api.searchContacts(t.olga, { q: NAME })).status).toBe(403);
    // the same through the MCP server
    expect((await callTool(service, t.sam, 'create_contact', { name: `${NAME} the Second`, email: `mcp.${EMAIL}` })).isError).toBe(false);
    expect((await callTool(service, t.sam, 'search_contacts', { q: NAME })).isError).toBe(false);
    expect((await callTool(service, t.sam, 'add_contact_email', { id, address: EMAIL })).isError).toBe(true);

    // interactions: subjects and bodies, a refused one, a follow-up completed
    const task = await api.logInteraction(t.sam, {
      kind: 'task',
      subject: SUBJECT,
      body: BODY,
      contact: id,
      due_at: '2026-05-01T10:00:00Z',
    });
    expect(task.status, task.text).toBe(201);
    expect(
      (await api.logInteraction(t.sam, { kind: 'note', subject: SUBJECT, body: BODY, company: 'Globex Corporation', contact: id })).status,
    ).toBe(422);
    expect((await api.listInteractions(t.sam, { contact: id })).status).toBe(200);
    expect((await callTool(service, t.sam, 'complete_follow_up', { id: task.body.id })).isError).toBe(false);

    expect(log.lines.length).toBeGreaterThan(10);
    const leaks = log.lines.filter((line) => SECRETS.some((secret) => line.toLowerCase().includes(secret.toLowerCase())));
    expect(leaks).toEqual([]);
    // the lines still say who did what: the member's id and the operation
    expect(log.lines.some((line) => line.includes('"operation":"create_contact"'))).toBe(true);
  });
});
