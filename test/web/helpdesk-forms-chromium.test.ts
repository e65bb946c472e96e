import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { send, startListeningService } from '../oauth/support.ts';
import { closeChromium, expectAccessible, launchChromium, logIn } from './browser.ts';

// Helpdesk forms for their managers (spec 2.6, 3.4, 4.4): a helpdesk project's request types are
// listed, created, changed, ordered and retired in the browser by the operations the API serves,
// under the same rules — helpdesk:forms to change them, helpdesk:publish to open one to anyone —
// and what each change did is read back through the REST API.

let service: TestService;
let browser: Browser;
let ada: string;

beforeAll(async () => {
  service = await startListeningService({ workspace: 'helpdesk-workspace.yaml' });
  ada = await service.token('ada@example.com', 'read', 'Ada reads');
  browser = await launchChromium();
});
afterAll(async () => {
  await closeChromium(browser);
  await service?.close();
}, 90_000);

interface ListedForm {
  key: string;
  name: string;
  submission: string;
  hidden: boolean;
  archived: boolean;
  ticket_type: string | null;
  description: string | null;
}

async function forms(includeArchived = false): Promise<ListedForm[]> {
  const reply = await send(service, 'GET', `/api/v1/projects/HELP/request-types${includeArchived ? '?include_archived=true' : ''}`, {
    headers: { authorization: `Bearer ${ada}` },
  });
  expect(reply.status).toBe(200);
  return reply.json.request_types as ListedForm[];
}

const keys = async () => (await forms()).map((f) => f.key);

async function createForm(page: Page, name: string, key: string): Promise<void> {
  await page.getByRole('link', { name: 'Create a request type' }).first().click();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Key', { exact: true }).fill(key);
  await page.getByLabel('Ticket type').selectOption('Question');
  await page.getByLabel('Description').fill(`${name}, asked from the portal`);
  await page.getByRole('button', { name: 'Create' }).click();
  await page.waitForURL(`${service.url}/projects/HELP/request-types`);
}

describe('a forms manager creates a request type from the project page, as create_request_type does', () => {
  it('is listed last in portal order, and the API shows it with what was typed', async () => {
    const { context, page, problems } = await logIn(browser, service.url, 'fay@example.com', 'fay-password', '/projects/HELP');
    await page.getByRole('link', { name: 'Request types' }).click();
    await page.getByRole('heading', { name: 'Request types of HELP' }).waitFor();
    await expectAccessible(page, 'request types');
    await page.getByRole('link', { name: 'Create a request type' }).first().click();
    await expectAccessible(page, 'create a request type');
    await page.goBack();
    await createForm(page, 'Billing question', 'billing');
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Created the request type Billing question');
    expect(await page.getByRole('cell', { name: 'Billing question' }).count()).toBeGreaterThan(0);
    const created = (await forms()).at(-1)!;
    expect(created).toMatchObject({
      key: 'billing',
      name: 'Billing question',
      ticket_type: 'Question',
      description: 'Billing question, asked from the portal',
      submission: 'authenticated',
      hidden: false,
    });
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('a refused form is shown again with the reason at its field and what was typed kept', () => {
  it('says what is wrong with the key, keeps the name, and creates nothing', async () => {
    const before = await keys();
    const { context, page } = await logIn(browser, service.url, 'fay@example.com', 'fay-password', '/projects/HELP/request-types/new');
    await page.getByLabel('Name', { exact: true }).fill('Spaces in the key');
    await page.getByLabel('Key', { exact: true }).fill('has spaces');
    await page.getByLabel('Ticket type').selectOption('Question');
    await page.getByRole('button', { name: 'Create' }).click();
    const key = page.getByLabel('Key', { exact: true });
    await expect.poll(() => key.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Spaces in the key');
    expect(await key.inputValue()).toBe('has spaces');
    await expectAccessible(page, 'create a request type, refused');
    expect(await keys()).toEqual(before);
    await context.close();
  });
});

describe('opening a form to anyone with no account needs helpdesk:publish', () => {
  it('is refused to a forms editor, changing nothing, and taken from a publisher', async () => {
    const fay = await logIn(browser, service.url, 'fay@example.com', 'fay-password', '/projects/HELP/request-types/get-help/edit');
    await expectAccessible(fay.page, 'change a request type');
    expect(await fay.page.getByLabel('Name', { exact: true }).inputValue()).toBe('Get help');
    await fay.page.getByLabel('Who may submit').selectOption('open');
    await fay.page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => fay.page.getByRole('alert').first().textContent()).toMatch(/publish/i);
    expect((await forms()).find((f) => f.key === 'get-help')!.submission).toBe('authenticated');
    await fay.context.close();

    const pia = await logIn(browser, service.url, 'pia@example.com', 'pia-password', '/projects/HELP/request-types/get-help/edit');
    await pia.page.getByLabel('Who may submit').selectOption('open');
    await pia.page.getByLabel('Hidden from the portal list (still reachable by its link)').check();
    await pia.page.getByRole('button', { name: 'Save changes' }).click();
    await pia.page.waitForURL(`${service.url}/projects/HELP/request-types`);
    expect((await forms()).find((f) => f.key === 'get-help')).toMatchObject({ submission: 'open', hidden: true, name: 'Get help' });
    await pia.context.close();
  });
});

describe('forms are put in portal order a place at a time, with and without JavaScript', () => {
  it('moves a form up with htmx in place, and down again without script', async () => {
    const start = await keys();
    const last = start.at(-1)!;
    const lastName = (await forms()).at(-1)!.name;
    const withScript = await logIn(browser, service.url, 'pia@example.com', 'pia-password', '/projects/HELP/request-types');
    await withScript.page.evaluate(() => Object.assign(window, { stayedOpen: true }));
    await withScript.page.getByRole('button', { name: `Move up: ${lastName}` }).click();
    await expect.poll(() => withScript.page.getByRole('status').textContent()).toContain(`Moved ${lastName} up`);
    expect(await withScript.page.evaluate(() => (window as unknown as { stayedOpen?: boolean }).stayedOpen)).toBe(true);
    const moved = [...start.slice(0, -2), last, start.at(-2)!];
    expect(await keys()).toEqual(moved);
    await expectAccessible(withScript.page, 'request types after a move');
    await withScript.context.close();

    const plain = await logIn(browser, service.url, 'pia@example.com', 'pia-password', '/projects/HELP/request-types', {
      javaScript: false,
    });
    await plain.page.getByRole('button', { name: `Move down: ${lastName}` }).click();
    await plain.page.waitForURL(`${service.url}/projects/HELP/request-types`);
    expect(await plain.page.getByRole('status').textContent()).toContain(`Moved ${lastName} down`);
    expect(await keys()).toEqual(start);
    await plain.context.close();
  });
});

/** A form's row in the list, by its name. */
const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });

/**
 * A row dragged with the pointer moved in steps onto the top edge of another's (landing above
 * it), as board-work-drag.ts drags a card; the page drawn again as the server then has it.
 */
async function dragRowAbove(page: Page, name: string, above: string): Promise<void> {
  const before = await page.evaluate(() => Number(document.body.dataset.refreshed ?? 0));
  const key = await row(page, name).getAttribute('data-key');
  const from = await row(page, name).locator('td').first().boundingBox();
  const to = await row(page, above).boundingBox();
  if (!from || !to) throw new Error(`${name} or ${above} is not on the page`);
  await page.mouse.move(from.x + 10, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + 10, to.y + 4, { steps: 8 });
  // SortableJS looks where the pointer is every 50 ms: let go once it has put the row there
  // (the row that follows the pointer is a copy of it outside the table)
  await page
    .locator('tbody')
    .getByRole('row')
    .filter({ has: page.getByText(above, { exact: true }) })
    .locator(`xpath=preceding-sibling::tr[1][@data-key="${key}"]`)
    .waitFor({ state: 'attached' });
  await page.mouse.up();
  await page.waitForFunction((n) => Number(document.body.dataset.refreshed ?? 0) > n, before);
}

describe('forms are dragged to their place in portal order, through the operation Move up and Move down use', () => {
  it('drags the last form above the first, keeps Move up and Move down for the keyboard, and the API lists the new order', async () => {
    const start = await forms();
    expect(start.length).toBeGreaterThan(1);
    const [first, last] = [start[0]!, start.at(-1)!];
    const { context, page, problems } = await logIn(
      browser,
      service.url,
      'pia@example.com',
      'pia-password',
      '/projects/HELP/request-types',
    );
    await page.waitForSelector('body[data-listening="yes"]');
    await page.evaluate(() => Object.assign(window, { stayedOpen: true }));
    await dragRowAbove(page, last.name, first.name);
    expect(await page.getByRole('status').textContent()).toContain(`Moved ${last.name} to place 1`);
    expect(await page.evaluate(() => (window as unknown as { stayedOpen?: boolean }).stayedOpen)).toBe(true);
    const dragged = [last.key, ...start.slice(0, -1).map((f) => f.key)];
    expect(await keys()).toEqual(dragged);
    // the rows as the server now has them: the dragged form first, with no Move up, and a Move down
    expect(await row(page, last.name).getByRole('cell').first().textContent()).toBe('1');
    expect(await page.getByRole('button', { name: `Move up: ${last.name}` }).count()).toBe(0);
    await expectAccessible(page, 'request types after a drag');

    // the keyboard's way is still there, on the rows as they now are
    await page.getByRole('button', { name: `Move down: ${last.name}` }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain(`Moved ${last.name} down`);
    expect(await keys()).toEqual([first.key, last.key, ...start.slice(1, -1).map((f) => f.key)]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('retiring a form takes it out of the portal and keeps it readable', () => {
  it('leaves the list, and the API lists it as archived', async () => {
    const { context, page } = await logIn(browser, service.url, 'fay@example.com', 'fay-password', '/projects/HELP/request-types');
    await createForm(page, 'Short lived', 'short-lived');
    await page.getByRole('button', { name: 'Retire Short lived' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Retired Short lived');
    expect(await page.getByRole('cell', { name: 'Short lived' }).count()).toBe(0);
    expect(await keys()).not.toContain('short-lived');
    expect((await forms(true)).find((f) => f.key === 'short-lived')).toMatchObject({ archived: true });
    await context.close();
  });
});

describe('a member without helpdesk:forms reads the forms and is told why they cannot change them', () => {
  it('shows no way to change, and the create page answers 403 saying what is needed', async () => {
    const { context, page } = await logIn(browser, service.url, 'vic@example.com', 'vic-password', '/projects/HELP/request-types');
    expect(await page.getByRole('cell', { name: 'Get help' }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: /Retire|Move/ }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Create a request type' }).count()).toBe(0);
    await expectAccessible(page, 'request types, read only');
    const refused = await page.goto(`${service.url}/projects/HELP/request-types/new`);
    expect(refused?.status()).toBe(403);
    expect(await page.getByRole('main').textContent()).toContain('needs the helpdesk forms permission');
    await context.close();
  });
});
