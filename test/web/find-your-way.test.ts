import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Operation } from '../../src/core/operation.ts';
import { MODULE_SWITCHES, readSettings } from '../../src/core/settings.ts';
import { registry } from '../../src/modules/index.ts';
import { builtModules } from '../../src/web/module-availability.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { Browser, formFields, loggedIn, me, send } from '../oauth/support.ts';

// The pages a person meets (ADR 0021): a member finds their way from the home page to every
// project, board, ticket and person, and each page says what it shows.

let service: TestService;
let dev2Id: string;
let leeId: string;

beforeAll(async () => {
  service = await startTestService({ workspace: 'pages-workspace.yaml' });
  const members = await service.db.selectFrom('members').select(['id', 'email']).execute();
  dev2Id = members.find((m) => m.email === 'dev2@example.com')!.id;
  leeId = members.find((m) => m.email === 'lee@example.com')!.id;
});
afterAll(async () => service?.close());

const api = (token: string, method: string, path: string, json?: unknown) =>
  send(service, method, `/api/v1${path}`, { headers: { authorization: `Bearer ${token}` }, ...(json === undefined ? {} : { json }) });

/** The markup of the element with this id, to its matching closing tag, for targeted checks. */
function element(page: string, id: string): string {
  const start = page.indexOf(`id="${id}"`);
  if (start < 0) throw new Error(`no #${id} in the page:\n${page.slice(0, 3000)}`);
  const open = page.lastIndexOf('<', start);
  const tag = /^<(\w+)/.exec(page.slice(open))![1]!;
  const tags = new RegExp(`<(/?)${tag}\\b[^>]*>`, 'g');
  tags.lastIndex = open;
  let depth = 0;
  for (let match = tags.exec(page); match; match = tags.exec(page)) {
    depth += match[1] ? -1 : 1;
    if (depth === 0) return page.slice(open, match.index + match[0].length);
  }
  throw new Error(`#${id} is not closed`);
}

describe('pages: the home page shows the member their projects, boards and assigned tickets, as links', () => {
  it('lists what Dev Two can see and leaves out the rest', async () => {
    const home = await (await loggedIn(service, 'dev2')).get('/');
    expect(home.status).toBe(200);
    expect(home.headers['content-type']).toMatch(/^text\/html/);
    expect(element(home.text, 'projects')).toContain('href="/projects/CORE"');
    expect(home.text).not.toContain('/projects/HIDE');
    const boards = element(home.text, 'boards');
    expect(boards).toContain('href="/boards/1"');
    expect(boards).toContain('href="/boards/2"');
    expect(boards).not.toContain('/boards/3');
    const assigned = element(home.text, 'assigned');
    expect(assigned).toContain('href="/browse/CORE-3"');
    // open tickets only: CORE-1 is assigned to Dev Two but done
    expect(assigned).not.toContain('CORE-1"');
  });

  it('sends a stranger to log in, and logging in lands on the home page', async () => {
    const browser = new Browser(service);
    expect((await browser.get('/')).location).toBe('/login');
    const answer = await browser.logIn('lee@example.com', 'lee-password');
    expect(answer.location).toBe('/');
  });
});

describe('pages: a project page and a person page, where project keys and names lead', () => {
  it('shows a visible project with its boards and open tickets, and 404 for a hidden one', async () => {
    const browser = await loggedIn(service, 'dev2');
    const page = await browser.get('/projects/CORE');
    expect(page.status).toBe(200);
    expect(page.text).toContain('href="/boards/1"');
    const open = element(page.text, 'open-tickets');
    expect(open).toContain('href="/browse/CORE-3"');
    expect(open).toContain(`href="/people/${dev2Id}"`);
    expect(open).not.toContain('CORE-1"');
    const hidden = await browser.get('/projects/HIDE');
    expect(hidden.status).toBe(404);
    expect(hidden.text).not.toContain('Hidden project');
  });

  it("shows a person's open tickets that the reader can see, and 404 for no such person", async () => {
    const browser = await loggedIn(service, 'dev2');
    const page = await browser.get(`/people/${dev2Id}`);
    expect(page.status).toBe(200);
    expect(element(page.text, 'person-name')).toContain('Dev Two');
    expect(element(page.text, 'assigned')).toContain('href="/browse/CORE-3"');
    // Lee's only ticket is in a project Dev Two cannot see
    const lee = await browser.get(`/people/${leeId}`);
    expect(lee.text).not.toContain('Secret assignment');
    expect((await browser.get('/people/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await browser.get('/people/not-an-id')).status).toBe(404);
  });
});

describe('pages: the ticket page renders rich text safely and shows every fact of the ticket', () => {
  it('renders Markdown as HTML, keeps raw HTML and javascript: links inert, and links keys of the reader’s projects', async () => {
    const page = await (await loggedIn(service, 'dev2')).get('/browse/CORE-1');
    expect(page.status).toBe(200);
    const description = element(page.text, 'description');
    expect(description).toContain('<strong>release</strong>');
    expect(description).toMatch(/<table>[\s\S]*<td>Tag<\/td>/);
    expect(description).not.toContain('<script');
    expect(description).toContain('&lt;script&gt;');
    expect(description).not.toMatch(/href="javascript:/i);
    expect(description).toContain('<a href="/browse/CORE-2">CORE-2</a>');
    expect(description).toContain('<code>CORE-3</code>');
    expect(page.text).not.toContain('**release**');
  });

  it('shows imported wiki text through its Markdown, in descriptions and comments', async () => {
    const browser = await loggedIn(service, 'dev2');
    const imported = await browser.get('/browse/CORE-2');
    const description = element(imported.text, 'description');
    expect(description).toMatch(/<h3>Steps<\/h3>/);
    expect(description).toMatch(/<ol>\s*<li>Open the <strong>login<\/strong> page<\/li>/);
    expect(description).not.toContain('h3.');
    const comments = element((await browser.get('/browse/CORE-1')).text, 'comments');
    expect(comments).toContain('<h2>Wiki heading</h2>');
    expect(comments).toContain('<em>good</em>');
  });

  it('shows custom fields, resolution, versions, due date, estimates and worklogs, with people and keys as links', async () => {
    const dev2 = await service.token('dev2@example.com', 'write', 'Logger');
    expect((await api(dev2, 'POST', '/tickets/CORE-1/worklogs', { time_spent: '1h 30m', body: 'Paired on **the tag**' })).status).toBe(201);
    const page = await (await loggedIn(service, 'dev2')).get('/browse/CORE-1');
    expect(element(page.text, 'resolution')).toContain('Fixed');
    expect(element(page.text, 'fix-versions')).toContain('1.0');
    expect(element(page.text, 'due-date')).toContain('2031-04-30');
    expect(element(page.text, 'field-platforms')).toMatch(/Linux, macOS/);
    expect(element(page.text, 'field-story_points')).toContain('5');
    expect(page.text).toMatch(/<dt>Platforms<\/dt>/);
    expect(page.text).toMatch(/<dt>Original estimate<\/dt><dd>1d<\/dd>/);
    expect(element(page.text, 'assignee')).toContain(`<a href="/people/${dev2Id}">Dev Two</a>`);
    expect(element(page.text, 'reporter')).toContain(`<a href="/people/${leeId}">Lee Lead</a>`);
    expect(page.text).toContain('href="/projects/CORE"');
    const worklogs = element(page.text, 'worklogs');
    expect(worklogs).toContain('1h 30m');
    expect(worklogs).toContain('<strong>the tag</strong>');
    expect(worklogs).toContain(`href="/people/${dev2Id}"`);
    expect(element(page.text, 'subtasks')).toContain('href="/browse/CORE-2"');
    expect(element((await (await loggedIn(service, 'dev2')).get('/browse/CORE-2')).text, 'parent')).toContain(
      '<a href="/browse/CORE-1">CORE-1</a>',
    );
  });
});

describe('pages: the board page shows the sprint asked for (?sprint=)', () => {
  const columns = (page: string) => element(page, 'columns');

  it('shows the active sprint by default, another by name or id, every ticket with none, and 404 naming the sprints for an unknown one', async () => {
    const browser = await loggedIn(service, 'dev2');
    const active = await browser.get('/boards/1');
    expect(element(active.text, 'sprint-name')).toContain('Sprint 1');
    expect(columns(active.text)).toContain('/browse/CORE-3"');
    expect(columns(active.text)).not.toContain('/browse/CORE-4"');

    const byName = await browser.get(`/boards/1?sprint=${encodeURIComponent('Sprint 2')}`);
    expect(byName.status).toBe(200);
    expect(element(byName.text, 'sprint-name')).toContain('Sprint 2');
    expect(columns(byName.text)).toContain('/browse/CORE-4"');
    expect(columns(byName.text)).not.toContain('/browse/CORE-3"');
    expect(element(byName.text, 'sprints')).toMatch(/href="\/boards\/1\?sprint=Sprint%202" aria-current="page"/);

    const lee = await service.token('lee@example.com');
    const sprints = (await api(lee, 'GET', '/boards/1/sprints')).json.sprints as { id: string; name: string }[];
    const byId = await browser.get(`/boards/1?sprint=${sprints.find((s) => s.name === 'Sprint 2')!.id}`);
    expect(columns(byId.text)).toContain('/browse/CORE-4"');
    expect(columns(byId.text)).not.toContain('/browse/CORE-3"');

    const everything = await browser.get('/boards/1?sprint=none');
    expect(columns(everything.text)).toContain('/browse/CORE-3"');
    expect(columns(everything.text)).toContain('/browse/CORE-4"');

    const unknown = await browser.get('/boards/1?sprint=Nope');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Sprint 1');
  });
});

describe('pages: "What my agents did" names the ticket (a link) and the values that changed', () => {
  it("shows the agent's change to a ticket as its key and before → after", async () => {
    const token = await service.token('dev2@example.com', 'write', 'Summary bot');
    expect((await api(token, 'PATCH', '/tickets/CORE-4', { summary: 'Planned for next year', priority: 'High' })).status).toBe(200);
    const page = await (await loggedIn(service, 'dev2')).get('/agents/activity');
    const row = page.text.slice(page.text.indexOf('<td class="agent" data-label="Agent">Summary bot</td>'));
    const what = row.slice(0, row.indexOf('</tr>'));
    expect(what).toContain('<a href="/browse/CORE-4">CORE-4</a>');
    expect(what).toContain('Summary: Planned for later → <strong>Planned for next year</strong>');
    expect(what).toContain('Priority: Low → <strong>High</strong>');
  });
});

describe('pages: creating a token redirects, and the secret is shown once on the page it lands on', () => {
  it('answers 303 to /agents without the secret in the URL; a reload neither shows it again nor makes a second token', async () => {
    const browser = await loggedIn(service, 'lee');
    const fields = formFields((await browser.get('/agents')).text, '/agents/tokens');
    const posted = await browser.post('/agents/tokens', { ...fields, name: 'Reload check', access: 'write', lifetime: '30' });
    expect(posted.status).toBe(303);
    expect(posted.location).toBe('/agents');
    expect(posted.text).not.toMatch(/svc_pat_/);

    // another browser of the same member does not receive it
    const elsewhere = await loggedIn(service, 'lee');
    expect((await elsewhere.get('/agents')).text).not.toContain('id="new-token"');

    const landed = await browser.get('/agents');
    const secret = /id="new-token">(svc_pat_[A-Za-z0-9_-]{43})</.exec(landed.text)?.[1];
    expect(secret).toBeDefined();
    expect((await me(service, secret!)).json.agent).toEqual({ name: 'Reload check', access: 'write' });
    const reloaded = await browser.get('/agents');
    expect(reloaded.text).not.toContain(secret!);
    expect(reloaded.text).not.toContain('id="new-token"');
    const tokens = await service.db
      .selectFrom('tokens')
      .select('id')
      .where('name', '=', 'Reload check')
      .where('revoked_at', 'is', null)
      .execute();
    expect(tokens).toHaveLength(1);
    // the database holds the waiting message sealed, never the secret itself
    await browser.post('/agents/tokens', { ...fields, name: 'Sealed check', access: 'read', lifetime: '30' });
    const waiting = await service.db.selectFrom('web_flashes').select('sealed').execute();
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.sealed).not.toMatch(/svc_pat_|Sealed check/);
    expect((await browser.get('/agents')).text).toContain('Token “Sealed check” created');
  });
});

describe('pages: an unknown path answers a page to a browser and JSON to programs', () => {
  it('answers an HTML 404 with a way home to a browser, logged in or not', async () => {
    const member = await loggedIn(service, 'dev2');
    const answer = await member.get('/no/such/page', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.text).toContain('id="not-found"');
    expect(answer.text).toContain('href="/"');
    expect(answer.text).toContain('id="unread-count"');
    expect(answer.headers['content-security-policy']).toMatch(/default-src 'none'/);
    const stranger = await new Browser(service).get('/no/such/page', { headers: { accept: 'text/html' } });
    expect(stranger.status).toBe(404);
    expect(stranger.text).toContain('href="/login"');
  });

  it.each(['/api/v1/nope', '/mcp/nope', '/oauth/nope', '/.well-known/nope'])('keeps JSON under %s even for a browser', async (path) => {
    const answer = await send(service, 'GET', path, { headers: { accept: 'text/html' } });
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.json).toBeDefined();
  });

  it('answers JSON to a client that does not ask for HTML', async () => {
    const answer = await send(service, 'GET', '/no/such/page', { headers: { accept: '*/*' } });
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ error: 'not_found', error_description: 'No such endpoint' });
  });
});

describe('pages: the settings page says "Saved." and the audit log says what a switch became', () => {
  it('shows Saved. after saving (only then), and the audit row reads "on → off"', async () => {
    const browser = await loggedIn(service, 'ada');
    const page = await browser.get('/admin/settings');
    expect(page.text).not.toContain('Saved.');
    const fields = formFields(page.text, '/admin/settings');
    const checked = [...page.text.matchAll(/<input type="checkbox" name="(\w+)" value="on" checked>/g)].map((m) => m[1]!);
    const form = Object.fromEntries(checked.filter((name) => name !== 'helpdesk').map((name) => [name, 'on']));
    const saved = await browser.post('/admin/settings', { ...fields, ...form });
    expect(saved.status).toBe(303);
    const after = await browser.get(saved.location!);
    expect(element(after.text, 'saved')).toContain('Saved.');
    expect(after.text).not.toMatch(/name="helpdesk" value="on" checked/);
    const audit = await browser.get('/admin/audit');
    const newest = audit.text.split('<tbody>')[1]!.split('</tr>')[0]!;
    expect(newest).toContain('workspace setting helpdesk');
    expect(newest).toContain('helpdesk: on → <strong class="off">off</strong>');
    await browser.post('/admin/settings', { ...fields, ...form, helpdesk: 'on' });
    const again = (await browser.get('/admin/audit')).text.split('<tbody>')[1]!.split('</tr>')[0]!;
    expect(again).toContain('helpdesk: off → <strong class="on">on</strong>');
  });
});

describe('pages: a module not built yet is "not available yet", not a switch shown on (data-driven)', () => {
  it('derives availability from the operations: a module with none is not available', () => {
    const op = (module: Operation['module']) => ({ module }) as Operation;
    expect([...builtModules([op('core'), op('tickets'), op('boards')])]).toEqual(['boards']);
    expect(builtModules([op('knowledge')]).has('knowledge')).toBe(true);
    expect(builtModules([]).size).toBe(0);
  });

  it('offers a checkbox exactly for the modules the service has operations for, and leaves the others untouched on save', async () => {
    const built = new Set(registry.operations.map((o) => o.module));
    const browser = await loggedIn(service, 'ada');
    const page = await browser.get('/admin/settings');
    for (const name of MODULE_SWITCHES) {
      const box = page.text.includes(`name="${name}" value="on"`);
      expect(box, name).toBe(built.has(name));
      expect(page.text.includes(`data-switch="${name}"`), name).toBe(!built.has(name));
      if (!built.has(name))
        expect(page.text).toMatch(new RegExp(`data-switch="${name}">[^<]*: <span class="muted">not available yet</span>`));
    }
    const before = await readSettings(service.db);
    // a save with no module checked turns off the built ones only
    await browser.post('/admin/settings', { ...formFields(page.text, '/admin/settings'), rest_api: 'on', mcp: 'on' });
    const after = await readSettings(service.db);
    for (const name of MODULE_SWITCHES) expect(after.modules[name], name).toBe(built.has(name) ? false : before.modules[name]);
    const all = Object.fromEntries(MODULE_SWITCHES.map((name) => [name, 'on']));
    await browser.post('/admin/settings', { ...formFields(page.text, '/admin/settings'), rest_api: 'on', mcp: 'on', ...all });
  });
});
