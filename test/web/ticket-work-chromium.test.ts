import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { send, startListeningService } from '../oauth/support.ts';
import { closeChromium, expectAccessible, launchChromium, logIn, settled } from './browser.ts';

// A new member of the demo workspace does a ticket's daily work in the browser: creates it with
// its type's fields, changes them in place, comments with a mention, and takes it through its
// workflow to Done, screens included. The page is the way in; the REST API is the witness.

const DEMO = fs.readFileSync(new URL('../../examples/demo-workspace.yaml', import.meta.url), 'utf8');
const NIA = 'nia@example.com';
const PASSWORD = 'nia-password';

/** The demo workspace with one more member, new to it: Nia Park, an engineer (Developer on ATR). */
function demoWithNia(): string {
  const members = 'members:\n';
  const engineering = 'members: [priya@example.com, marco@example.com, lena@example.com, sam@example.com]';
  if (!DEMO.includes(members) || !DEMO.includes(engineering)) throw new Error('the demo workspace no longer reads as expected');
  return DEMO.replace(
    members,
    `${members}  - name: Nia Park\n    email: ${NIA}\n    password: ${PASSWORD}\n    timezone: Europe/Paris\n`,
  ).replace(engineering, engineering.replace(']', `, ${NIA}]`));
}

// each rule is several pages in a row
vi.setConfig({ testTimeout: 90_000 });

let service: TestService;
let browser: Browser;
let witness: string;

beforeAll(async () => {
  service = await startListeningService({ workspace: demoWithNia() });
  witness = await service.token('admin@example.com', 'read', 'Witness');
  browser = await launchChromium();
});
afterAll(async () => {
  await closeChromium(browser);
  await service?.close();
}, 90_000);

const api = async (path: string) => {
  const answer = await send(service, 'GET', `/api/v1${path}`, { headers: { authorization: `Bearer ${witness}` } });
  expect(answer.status).toBe(200);
  return answer.json;
};
const asNia = (path: string, javaScript = true) => logIn(browser, service.url, NIA, PASSWORD, path, { javaScript });
const at = (path: string) => new URL(path, service.url).href;
const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { stayedOpen: true }));
const stayedOpen = (page: Page) => page.evaluate(() => (window as unknown as { stayedOpen?: boolean }).stayedOpen === true);
const status = (page: Page) => page.getByRole('status').first().textContent();

/** Nia creates a plain task through the form without script: the tickets the later rules work on. */
async function aTicket(summary: string): Promise<string> {
  const { context, page } = await asNia('/tickets/new?project=ATR', false);
  await page.getByLabel('Type').selectOption('Task');
  await page.getByLabel('Summary').fill(summary);
  await page.getByRole('button', { name: 'Create' }).click();
  await page.waitForURL(/\/browse\/ATR-\d+$/);
  const key = page.url().split('/').pop()!;
  await context.close();
  return key;
}

describe('create a ticket: the type’s fields, a Markdown preview, and create_ticket as the member', () => {
  it('creates a Story with description, priority, assignee, labels, component, due date, parent and custom fields', async () => {
    const { context, page, problems } = await asNia('/tickets/new?project=ATR');
    await page.getByLabel('Type').selectOption('Story');
    await settled(page);
    // the type brings its custom fields (Story points is a Story's, Severity a Bug's)
    await page.getByLabel('Story points').waitFor();
    expect(await page.getByLabel('Severity').count()).toBe(0);
    await expectAccessible(page, 'create-ticket form for a Story');
    await page.getByLabel('Summary').fill('Keyboard shortcuts for the board');
    await page.getByLabel('Description').fill('Move cards with **arrow keys**, see ATR-2.');
    await page.getByRole('button', { name: 'Preview description' }).click();
    await expect.poll(() => page.locator('#field-description-preview strong').textContent()).toBe('arrow keys');
    expect(await page.locator('#field-description-preview a').getAttribute('href')).toBe('/browse/ATR-2');
    await page.getByLabel('Priority').selectOption('High');
    await page.getByLabel('Assignee').selectOption({ label: 'Nia Park' });
    await page.getByLabel('Labels').fill('good-first-issue, keyboard');
    await page.getByRole('checkbox', { name: 'Web UI' }).check();
    await page.getByLabel('Due date').fill('2027-03-01');
    await page.getByLabel('Parent').fill('ATR-1');
    await page.getByLabel('Story points').fill('lots');
    await page.getByRole('checkbox', { name: 'Linux' }).check();
    await markPage(page);
    await page.getByRole('button', { name: 'Create' }).click();
    // refused at its field, with everything typed kept, the form alone swapped
    const points = page.getByLabel('Story points');
    await expect.poll(() => points.getAttribute('aria-invalid')).toBe('true');
    expect(await points.inputValue()).toBe('lots');
    expect(await page.getByLabel('Summary').inputValue()).toBe('Keyboard shortcuts for the board');
    expect(await page.getByRole('checkbox', { name: 'Linux' }).isChecked()).toBe(true);
    expect(await stayedOpen(page)).toBe(true);
    await expectAccessible(page, 'create-ticket form with a refused custom field');

    await points.fill('3');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/browse\/ATR-\d+$/);
    const key = page.url().split('/').pop()!;
    expect(await status(page)).toContain(`Created ${key}`);
    await expectAccessible(page, 'the new ticket');
    const ticket = await api(`/tickets/${key}`);
    expect(ticket).toMatchObject({
      summary: 'Keyboard shortcuts for the board',
      type: 'Story',
      priority: 'High',
      assignee: { name: 'Nia Park' },
      reporter: { name: 'Nia Park' },
      labels: expect.arrayContaining(['good-first-issue', 'keyboard']),
      components: ['Web UI'],
      due_date: '2027-03-01',
      parent: 'ATR-1',
      description: { format: 'markdown', text: 'Move cards with **arrow keys**, see ATR-2.' },
      fields: { story_points: '3', platforms: 'Linux' },
    });
    expect(problems.filter((p) => !/status of 422/.test(p))).toEqual([]);
    await context.close();
  });

  it('offers the request types of a helpdesk project and files the ticket through the chosen one', async () => {
    const { context, page } = await logIn(browser, service.url, 'hana@example.com', 'atrium-demo', '/tickets/new?project=HELP');
    await page.getByLabel('Helpdesk form').selectOption({ label: 'Ask about billing' });
    await settled(page);
    await page.getByLabel('Summary').fill('The VPN drops every hour');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/browse\/HELP-\d+$/);
    const ticket = await api(`/tickets/${page.url().split('/').pop()}`);
    expect(ticket.request_type).toBe('Ask about billing');
    await context.close();
  });

  it('keeps what is typed while a new type brings its fields, and takes the new fields', async () => {
    const { context, page } = await asNia('/tickets/new?project=ATR');
    // the type's fields are held back until the member has typed on: the answer comes after the typing
    let typed!: () => void;
    const typing = new Promise<void>((resolve) => {
      typed = resolve;
    });
    await page.route(
      (url) => url.pathname === '/tickets/new' && url.searchParams.has('type'),
      async (route) => {
        await typing;
        await route.continue();
      },
    );
    await page.getByLabel('Summary').fill('Typed before');
    await page.getByLabel('Type').selectOption('Story');
    await page.getByLabel('Summary').fill('Typed before, and while the fields came');
    await page.getByLabel('Description').fill('Written meanwhile');
    typed();
    await page.getByLabel('Story points').waitFor();
    await settled(page);
    expect(await page.getByLabel('Summary').inputValue()).toBe('Typed before, and while the fields came');
    expect(await page.getByLabel('Description').inputValue()).toBe('Written meanwhile');
    expect(await page.getByLabel('Type').inputValue()).toBe('Story');
    await page.getByLabel('Story points').fill('5');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/browse\/ATR-\d+$/);
    const ticket = await api(`/tickets/${page.url().split('/').pop()}`);
    expect(ticket).toMatchObject({
      summary: 'Typed before, and while the fields came',
      type: 'Story',
      description: { text: 'Written meanwhile' },
      fields: { story_points: '5' },
    });
    await context.close();
  });
});

describe('change a field in place through update_ticket', () => {
  it('with htmx: the field becomes its form and comes back changed, the page staying open', async () => {
    const key = await aTicket('Edited in place');
    const { context, page, problems } = await asNia(`/browse/${key}`);
    await expectAccessible(page, 'ticket page');
    await markPage(page);

    await page.getByRole('link', { name: 'Edit priority' }).click();
    await page.getByRole('form', { name: 'Change priority' }).getByLabel('Priority').selectOption('Highest');
    await expectAccessible(page, 'ticket page with a field being changed');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'ticket page with a field being changed, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#priority').textContent()).toContain('Highest');

    await page.getByRole('link', { name: 'Edit summary' }).click();
    const summary = page.getByRole('form', { name: 'Change summary' }).getByLabel('Summary');
    await summary.fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    // refused at its field, the page still open
    await expect.poll(() => summary.getAttribute('aria-invalid')).toBe('true');
    await summary.fill('Edited in place, twice');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('Edited in place, twice');

    await page.getByRole('link', { name: 'Edit description' }).click();
    await page.getByRole('form', { name: 'Change description' }).getByLabel('Description').fill('Now with a _description_.');
    await page.getByRole('button', { name: 'Preview description' }).click();
    await expect.poll(() => page.locator('#field-description-preview em').textContent()).toBe('description');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#description em').textContent()).toBe('description');

    await page.getByRole('link', { name: 'Edit labels' }).click();
    await page.getByRole('form', { name: 'Change labels' }).getByLabel('Labels').fill('performance, tech-debt');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#labels').textContent()).toContain('performance, tech-debt');

    await page.getByRole('link', { name: 'Edit custom fields' }).click();
    const custom = page.getByRole('form', { name: 'Change custom fields' });
    await custom.getByLabel('Story points').fill('8');
    await custom.getByRole('checkbox', { name: 'macOS' }).check();
    await custom.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#field-platforms').count()).toBe(1);
    expect(await page.locator('#field-platforms').textContent()).toBe('macOS');
    expect(await stayedOpen(page)).toBe(true);
    await expectAccessible(page, 'ticket page after changes');

    expect(await api(`/tickets/${key}`)).toMatchObject({
      summary: 'Edited in place, twice',
      priority: 'Highest',
      description: { text: 'Now with a _description_.' },
      labels: ['performance', 'tech-debt'],
      fields: { story_points: '8', platforms: 'macOS' },
    });
    expect(problems.filter((p) => !/status of 422/.test(p))).toEqual([]);
    await context.close();
  });

  it('without JavaScript: the Edit link is a page whose form posts and comes back to the ticket', async () => {
    const key = await aTicket('Edited without script');
    const { context, page } = await asNia(`/browse/${key}`, false);
    await page.getByRole('link', { name: 'Edit due date' }).click();
    await page.waitForURL(at(`/browse/${key}/edit/due_date`));
    await page.getByRole('form', { name: 'Change due date' }).getByLabel('Due date').fill('2027-01-15');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(at(`/browse/${key}`));
    expect(await status(page)).toContain(`Changed the due date of ${key}`);
    expect(await page.locator('#due-date').textContent()).toContain('2027-01-15');
    expect((await api(`/tickets/${key}`)).due_date).toBe('2027-01-15');
    await context.close();
  });
});

describe('comment with a preview, mentioning a member who can read the ticket', () => {
  it('completes @pri to Priya, adds the comment through add_comment, and Priya is told', async () => {
    const key = await aTicket('Worth a comment');
    const { context, page, problems } = await asNia(`/browse/${key}`);
    await markPage(page);
    const body = page.getByRole('textbox', { name: 'Comment' });
    await body.click();
    await body.pressSequentially('Could you look at this, @pri');
    const priya = page.getByRole('button', { name: 'Priya Shah @priya' });
    await priya.waitFor();
    await expectAccessible(page, 'ticket page with mention choices');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'ticket page with mention choices, dark');
    await priya.click();
    await expect.poll(() => page.getByRole('textbox', { name: 'Comment' }).inputValue()).toBe('Could you look at this, @priya ');
    // the member goes on typing where the name was put in
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('field-body');
    await page.getByRole('textbox', { name: 'Comment' }).pressSequentially('**please**');
    await page.getByRole('button', { name: 'Preview comment' }).click();
    await expect.poll(() => page.locator('#field-body-preview strong').textContent()).toBe('please');
    await page.getByRole('button', { name: 'Add comment' }).click();
    await expect.poll(() => page.locator('#comments').textContent()).toContain('Could you look at this, @priya please');
    expect(await page.getByRole('textbox', { name: 'Comment' }).inputValue()).toBe('');
    expect(await stayedOpen(page)).toBe(true);
    expect(problems.filter((p) => !/status of 422/.test(p))).toEqual([]);
    await context.close();

    const comments = (await api(`/tickets/${key}`)).comments as { body: { text: string }; author: { name: string } }[];
    expect(comments.at(-1)).toMatchObject({ body: { text: 'Could you look at this, @priya **please**' }, author: { name: 'Nia Park' } });
    const told = await logIn(browser, service.url, 'priya@example.com', 'atrium-demo', '/notifications', { javaScript: false });
    expect(await told.page.getByRole('link', { name: `Nia Park mentioned you on ${key}` }).count()).toBe(1);
    await told.context.close();
  });

  it('without JavaScript: Preview draws the page again with the text kept, Add comment posts and comes back', async () => {
    const key = await aTicket('Commented without script');
    const { context, page } = await asNia(`/browse/${key}`, false);
    await page.getByRole('textbox', { name: 'Comment' }).fill('A plain **form**');
    await page.getByRole('button', { name: 'Preview comment' }).click();
    await page.waitForURL(at(`/browse/${key}/comments`));
    expect(await page.locator('#field-body-preview strong').textContent()).toBe('form');
    expect(await page.getByRole('textbox', { name: 'Comment' }).inputValue()).toBe('A plain **form**');
    expect((await api(`/tickets/${key}`)).comments).toEqual([]);
    await page.getByRole('button', { name: 'Add comment' }).click();
    await page.waitForURL(at(`/browse/${key}#comments-section`));
    expect(await status(page)).toContain(`Comment added to ${key}`);
    expect((await api(`/tickets/${key}`)).comments.map((c: { body: { text: string } }) => c.body.text)).toEqual(['A plain **form**']);
    await context.close();
  });

  it('on a helpdesk project, an internal note is added as internal', async () => {
    const { context, page } = await logIn(browser, service.url, 'hana@example.com', 'atrium-demo', '/browse/HELP-1');
    await page.getByRole('textbox', { name: 'Comment' }).fill('Customer is on the old plan.');
    await page.getByRole('checkbox', { name: 'Internal note: never shown to customers' }).check();
    await page.getByRole('button', { name: 'Add comment' }).click();
    await expect.poll(() => page.locator('#comments').textContent()).toContain('Customer is on the old plan.');
    const comments = (await api('/tickets/HELP-1')).comments as { body: { text: string }; visibility: string }[];
    expect(comments.at(-1)).toMatchObject({ body: { text: 'Customer is on the old plan.' }, visibility: 'internal' });
    await context.close();
  });

  it('offers only members who can read the ticket', async () => {
    const key = await aTicket('Who may be mentioned');
    const { context, page } = await asNia(`/browse/${key}`);
    const choices = async (typed: string) => {
      const answer = await page.request.get(at(`/browse/${key}/mentions?body=${encodeURIComponent(typed)}`));
      return answer.text();
    };
    expect(await choices('hi @jor')).toContain('Jordan Lee @jordan');
    expect(await choices('hi @die')).not.toContain('Diego');
    expect(await choices('no mention here')).toBe('');
    await context.close();
  });
});

describe('take a ticket through its workflow to Done, with the screens its transitions ask for', () => {
  it('Start work asks an assignee, a refused Request review says why, Done asks a resolution', async () => {
    const key = await aTicket('Through the workflow');
    const { context, page, problems } = await asNia(`/browse/${key}`);
    await expectAccessible(page, 'ticket page with its transitions');

    await page.getByRole('link', { name: 'Start work…' }).click();
    await page.waitForURL(/\/transition\//);
    await expectAccessible(page, 'Start work screen');
    await page.getByLabel('Assignee').selectOption({ label: 'Nia Park' });
    await page.getByRole('button', { name: 'Start work' }).click();
    await page.waitForURL(at(`/browse/${key}`));
    expect(await status(page)).toContain(`${key} is now In Progress`);
    expect(await api(`/tickets/${key}`)).toMatchObject({ status: { name: 'In Progress' }, assignee: { name: 'Nia Park' } });

    // unassigned, the validator refuses the review, and says why; nothing changes
    await page.getByRole('link', { name: 'Edit assignee' }).click();
    await page.getByRole('form', { name: 'Change assignee' }).getByLabel('Assignee').selectOption('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#assignee').textContent()).toContain('Unassigned');
    // opened again, so that no live refresh of the change is on its way while the button is clicked
    await page.reload();
    await page.getByRole('button', { name: 'Request review' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('Assign the ticket before asking for a review.');
    expect((await api(`/tickets/${key}`)).status.name).toBe('In Progress');

    await page.getByRole('link', { name: 'Edit assignee' }).click();
    await page.getByRole('form', { name: 'Change assignee' }).getByLabel('Assignee').selectOption({ label: 'Nia Park' });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#assignee').textContent()).toContain('Nia Park');
    await page.reload();
    await page.getByRole('button', { name: 'Request review' }).click();
    await page.waitForURL(at(`/browse/${key}`));
    await expect.poll(() => page.locator('#status').textContent()).toBe('In Review');

    await page.getByRole('link', { name: 'Done…' }).click();
    await page.waitForURL(/\/transition\//);
    await page.getByLabel('Resolution').selectOption("Won't Do");
    await page.getByRole('textbox', { name: /^Comment/ }).fill('Covered by the **command palette**.');
    await expectAccessible(page, 'Done screen');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'Done screen, dark');
    await page.getByRole('button', { name: 'Done', exact: true }).click();
    await page.waitForURL(at(`/browse/${key}`));
    expect(await status(page)).toContain(`${key} is now Done (Won't Do)`);
    await expectAccessible(page, 'ticket page, done');
    const done = await api(`/tickets/${key}`);
    expect(done).toMatchObject({ status: { name: 'Done', category: 'done' }, resolution: "Won't Do" });
    expect(done.comments.at(-1).body.text).toBe('Covered by the **command palette**.');
    expect(problems.filter((p) => !/status of 422/.test(p))).toEqual([]);
    await context.close();
  });

  it('without JavaScript: a transition button posts, and a refusal comes back with its reason', async () => {
    const key = await aTicket('Moved without script');
    const { context, page } = await asNia(`/browse/${key}`, false);
    await page.getByRole('link', { name: 'Start work…' }).click();
    await page.getByRole('button', { name: 'Start work' }).click();
    await page.waitForURL(at(`/browse/${key}`));
    expect((await api(`/tickets/${key}`)).status.name).toBe('In Progress');
    await page.getByRole('link', { name: 'Edit assignee' }).click();
    await page.getByRole('form', { name: 'Change assignee' }).getByLabel('Assignee').selectOption('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(at(`/browse/${key}`));
    await page.getByRole('button', { name: 'Request review' }).click();
    expect(await page.getByRole('main').textContent()).toContain('Assign the ticket before asking for a review.');
    expect((await api(`/tickets/${key}`)).status.name).toBe('In Progress');
    await context.close();
  });
});

describe('log work through log_work, and add a sub-task through the create form', () => {
  it('logs 1h 30m with what was done, refuses a time that is no duration at its field, and adds a sub-task', async () => {
    const key = await aTicket('Worth some work');
    const { context, page, problems } = await asNia(`/browse/${key}`);
    await markPage(page);
    const logged = page.getByRole('form', { name: 'Log work' });
    await logged.getByLabel('Time spent').fill('soon');
    await logged.getByRole('button', { name: 'Log work' }).click();
    await expect
      .poll(() => page.getByRole('form', { name: 'Log work' }).getByLabel('Time spent').getAttribute('aria-invalid'))
      .toBe('true');
    expect(await page.getByRole('form', { name: 'Log work' }).getByLabel('Time spent').inputValue()).toBe('soon');
    await page.getByRole('form', { name: 'Log work' }).getByLabel('Time spent').fill('1h 30m');
    await page.getByRole('form', { name: 'Log work' }).getByLabel('What was done').fill('Read the **logs**.');
    await page.getByRole('form', { name: 'Log work' }).getByRole('button', { name: 'Log work' }).click();
    await expect.poll(() => page.locator('#worklogs').textContent()).toContain('1h 30m');
    expect(await stayedOpen(page)).toBe(true);
    await expectAccessible(page, 'ticket page with work logged');
    const ticket = await api(`/tickets/${key}`);
    expect(ticket.time_spent_seconds).toBe(5400);
    expect(ticket.worklogs[0]).toMatchObject({ time_spent: '1h 30m', author: { name: 'Nia Park' }, body: { text: 'Read the **logs**.' } });

    await page.getByRole('link', { name: 'Add a sub-task' }).click();
    await page.waitForURL(/\/tickets\/new\?/);
    expect(await page.getByLabel('Parent').inputValue()).toBe(key);
    await page.getByLabel('Type').selectOption('Sub-task');
    await settled(page);
    await page.getByLabel('Summary').fill('A piece of the work');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/browse\/ATR-\d+$/);
    const subtask = page.url().split('/').pop()!;
    expect(await api(`/tickets/${subtask}`)).toMatchObject({ parent: key, type: 'Sub-task' });
    expect((await api(`/tickets/${key}`)).subtasks.map((s: { key: string }) => s.key)).toEqual([subtask]);
    expect(problems.filter((p) => !/status of 422/.test(p))).toEqual([]);
    await context.close();
  });
});

describe('a change the policy refuses is said at its form and changes nothing', () => {
  it('a viewer of the project may read the ticket but not change it, and is offered no comment form', async () => {
    const key = await aTicket('Only looked at');
    const { context, page } = await logIn(browser, service.url, 'jordan@example.com', 'atrium-demo', `/browse/${key}`);
    await page.getByRole('link', { name: 'Edit priority' }).click();
    const change = page.getByRole('form', { name: 'Change priority' });
    await change.getByLabel('Priority').selectOption('Lowest');
    await change.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('form', { name: 'Change priority' }).getByRole('alert').count()).toBe(1);
    expect(await page.getByRole('form', { name: 'Change priority' }).getByLabel('Priority').inputValue()).toBe('Lowest');
    await expectAccessible(page, 'a refused change at its form');

    // a viewer is not offered the comment form (ADR 0075)
    expect(await page.getByRole('form', { name: 'Add a comment' }).count()).toBe(0);
    const seen = await api(`/tickets/${key}`);
    expect(seen.priority).toBe('Medium');
    expect(seen.comments).toEqual([]);
    await context.close();
  });
});
