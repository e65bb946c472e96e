import { formToken } from '../../src/web/session.ts';
import type { TestService } from '../helpers/service.ts';
import { Browser, formFields, newAddress, send, type Exchange } from '../oauth/support.ts';

/** A workspace for attachments, votes and history: one member per part the policy gives. */
export const EXTRAS_WORKSPACE = `
workspace: { name: Extras, rest_api: true, mcp: true, default_priority: Medium, priorities: [High, Medium, Low] }
members:
  - { name: Ada Admin, email: ada@example.com, password: ada-password, admin: true }
  - { name: Lee Lead, email: lee@example.com, password: lee-password }
  - { name: Dev Worker, email: dev@example.com, password: dev-password }
  - { name: Vic Viewer, email: vic@example.com, password: vic-password }
  - { name: Olga Outsider, email: olga@example.com, password: olga-password }
roles:
  - name: Lead
    permissions: [project:view, ticket:create, ticket:edit, ticket:assign, ticket:transition, ticket:comment, time:log]
  - name: Developer
    permissions: [project:view, ticket:create, ticket:edit_own, ticket:transition, ticket:comment, time:log]
  - { name: Viewer, permissions: [project:view] }
workflows:
  - name: Simple
    statuses: [{ name: To Do, category: todo }, { name: In Progress, category: in_progress }, { name: Done, category: done }]
    transitions:
      - { name: Start, from: [To Do], to: In Progress }
      - { name: Finish, from: any, to: Done }
projects:
  - key: CORE
    name: Core platform
    kind: software
    workflow: Simple
    ticket_types: [Task]
    roles:
      - { role: Lead, members: [lee@example.com] }
      - { role: Developer, members: [dev@example.com] }
      - { role: Viewer, members: [vic@example.com] }
`;

export const PASSWORD: Record<string, string> = {
  ada: 'ada-password',
  lee: 'lee-password',
  dev: 'dev-password',
  vic: 'vic-password',
  olga: 'olga-password',
};

export async function memberBrowser(service: TestService, who: string): Promise<Browser> {
  const browser = new Browser(service);
  const answer = await browser.logIn(`${who}@example.com`, PASSWORD[who]!);
  if (answer.status !== 303) throw new Error(`log-in of ${who} failed: ${answer.status}`);
  return browser;
}

export const api = (service: TestService, token: string, method: string, path: string, json?: unknown) =>
  send(service, method, `/api/v1${path}`, { headers: { authorization: `Bearer ${token}` }, ...(json === undefined ? {} : { json }) });

/** A ticket's links as `reader` reads them through GET /tickets/{key}: "relation key" each. */
export async function linksOf(service: TestService, reader: string, key: string): Promise<string[]> {
  const read = await api(service, reader, 'GET', `/tickets/${key}`);
  if (read.status !== 200) throw new Error(`GET /tickets/${key}: ${read.status}`);
  return (read.json.links as { relation: string; ticket: string }[]).map((l) => `${l.relation} ${l.ticket}`);
}

export interface FileToSend {
  name: string;
  type: string;
  content: Buffer;
}

/** A multipart/form-data body as a browser writes it (a `"` in a name as %22). */
export function multipartBody(fields: Record<string, string>, files: readonly FileToSend[]): { boundary: string; body: Buffer } {
  const boundary = `----atrium${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    const name = file.name.replace(/"/g, '%22');
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
    );
    parts.push(file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { boundary, body: Buffer.concat(parts) };
}

/** Uploads files from the ticket page's Attach form, as the member's browser would (no htmx). */
export async function upload(service: TestService, browser: Browser, key: string, files: readonly FileToSend[]): Promise<Exchange> {
  const action = `/browse/${key}/attachments`;
  const page = await browser.get(`/browse/${key}`);
  const csrf = page.text.includes(`action="${action}"`) ? (formFields(page.text, action).csrf ?? '') : '';
  return postMultipart(service, browser, action, { csrf }, files);
}

export async function postMultipart(
  service: TestService,
  browser: Browser,
  action: string,
  fields: Record<string, string>,
  files: readonly FileToSend[],
  headers: Record<string, string> = {},
): Promise<Exchange> {
  const { boundary, body } = multipartBody(fields, files);
  const response = await service.app.inject({
    method: 'POST',
    url: action,
    headers: {
      cookie: browser.cookieHeader(),
      origin: new URL(service.publicUrl).origin,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...headers,
    },
    payload: body,
    remoteAddress: newAddress(),
  });
  const location = response.headers.location;
  return {
    status: response.statusCode,
    headers: response.headers,
    text: response.body,
    json: undefined,
    location: typeof location === 'string' ? location : undefined,
  };
}

/** A form of the page posting to `action`, sent with its CSRF token. */
export async function postForm(browser: Browser, pagePath: string, action: string, values: Record<string, string> = {}): Promise<Exchange> {
  const page = await browser.get(pagePath);
  return browser.post(action, { ...formFields(page.text, action), ...values });
}

/**
 * The form token the member's session would carry on a form posting to `action`: for a member
 * shown no such form (the ticket is not theirs to see), to prove the operation itself refuses.
 */
export function tokenFor(browser: Browser, action: string): string {
  const cookie = browser.cookies.get('atrium_session');
  if (!cookie) throw new Error('not logged in');
  return formToken({ cookie }, action);
}
