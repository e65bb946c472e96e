import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { send, startListeningService } from '../oauth/support.ts';
import { closeChromium, expectAccessible, launchChromium, logIn, settled } from './browser.ts';

// A member of the demo workspace sets a ticket's fix and affected versions in the browser
// (set_ticket_versions, the web door only): in place on the ticket page, with script and
// without, and on the create form. ATR has the versions 1.0, 1.1 and 2.0 (0.9 is archived).
// The page is the way in; the REST API is the witness.

const DEMO = fs.readFileSync(new URL('../../examples/demo-workspace.yaml', import.meta.url), 'utf8');
const PASSWORD = 'atrium-demo';
/** A Developer on ATR (ticket:edit), and a Viewer of it. */
const MARCO = 'marco@example.com';
const JORDAN = 'jordan@example.com';

vi.setConfig({ testTimeout: 90_000 });

let service: TestService;
let browser: Browser;
let witness: string;
let marco: string;

beforeAll(async () => {
  if (
    !/key: ATR[\s\S]*?versions:\s*\n\s*- \{ name: '0\.9'[^\n]*archived: true \}\s*\n\s*- \{ name: '1\.0'[^\n]*\}\s*\n\s*- '1\.1'\s*\n\s*- '2\.0'/.test(
      DEMO,
    )
  ) {
    throw new Error('the demo workspace’s ATR versions no longer read as expected');
  }
  service = await startListeningService({ workspace: DEMO });
  witness = await service.token('admin@example.com', 'read', 'Witness');
  marco = await service.token(MARCO, 'write', 'Marco agent');
  browser = await launchChromium();
});
afterAll(async () => {
  await closeChromium(browser);
  await service?.close();
}, 90_000);

const call = (method: string, path: string, token: string, json?: unknown) =>
  send(service, method, `/api/v1${path}`, { headers: { authorization: `Bearer ${token}` }, ...(json ? { json } : {}) });
const versions = async (key: string) => {
  const read = await call('GET', `/tickets/${key}`, witness);
  expect(read.status).toBe(200);
  return { fix_versions: read.json.fix_versions as string[], affected_versions: read.json.affected_versions as string[] };
};
const aTicket = async (summary: string) => {
  const created = await call('POST', '/tickets', marco, { project: 'ATR', type: 'Task', summary });
  expect(created.status).toBe(201);
  return created.json.key as string;
};
const as = (email: string, path: string, javaScript = true) => logIn(browser, service.url, email, PASSWORD, path, { javaScript });
const at = (path: string) => new URL(path, service.url).href;
const status = (page: Page) => page.getByRole('status').first().textContent();
const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { stayedOpen: true }));
const stayedOpen = (page: Page) => page.evaluate(() => (window as unknown as { stayedOpen?: boolean }).stayedOpen === true);

describe('set versions in place with htmx: checkboxes of the project’s versions, Save runs set_ticket_versions', () => {
  it('sets fix and affected versions, the page staying open, and a refused name is said at its field with the boxes kept', async () => {
    const key = await aTicket('Versions in place');
    const { context, page, problems } = await as(MARCO, `/browse/${key}`);
    await markPage(page);

    await page.getByRole('link', { name: 'Edit fix versions' }).click();
    const fix = page.getByRole('form', { name: 'Change fix versions' });
    // the archived 0.9 is not offered
    await expect.poll(() => fix.getByRole('checkbox').count()).toBe(3);
    await fix.getByRole('checkbox', { name: '1.1' }).check();
    await fix.getByRole('checkbox', { name: '2.0' }).check();
    await expectAccessible(page, 'ticket page with its fix versions being changed');
    await fix.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#fix-versions').textContent()).toContain('1.1, 2.0');
    expect(await status(page)).toContain(`Changed the fix versions of ${key}`);

    await page.getByRole('link', { name: 'Edit affected versions' }).click();
    const affected = page.getByRole('form', { name: 'Change affected versions' });
    await affected.getByRole('checkbox', { name: '1.0' }).check();
    // a version gone since the form was drawn: refused at the field, what was checked kept
    await affected.getByRole('checkbox', { name: '2.0' }).evaluate((box) => {
      (box as HTMLInputElement).value = 'Gone';
      (box as HTMLInputElement).checked = true;
    });
    await affected.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#field-affected_versions-error').textContent()).toContain('No version "Gone"');
    expect(await page.getByRole('form', { name: 'Change affected versions' }).getByRole('checkbox', { name: '1.0' }).isChecked()).toBe(
      true,
    );
    await expectAccessible(page, 'ticket page with a refused version');
    expect(await versions(key)).toEqual({ fix_versions: ['1.1', '2.0'], affected_versions: [] });
    await page.getByRole('form', { name: 'Change affected versions' }).getByRole('button', { name: 'Save' }).click();
    // the form gone (its boxes' labels name the versions too), the list shown again
    await expect.poll(() => page.getByRole('form', { name: 'Change affected versions' }).count()).toBe(0);
    expect(await page.locator('#affected-versions').textContent()).toContain('1.0');

    expect(await stayedOpen(page)).toBe(true);
    expect(await versions(key)).toEqual({ fix_versions: ['1.1', '2.0'], affected_versions: ['1.0'] });
    expect(problems.filter((p) => !/status of 422/.test(p))).toEqual([]);
    await context.close();
  });
});

describe('set versions without JavaScript: the Edit link is a page whose form posts and comes back to the ticket', () => {
  it('replaces the fix versions, and unchecking every box empties them', async () => {
    const key = await aTicket('Versions without script');
    const { context, page } = await as(MARCO, `/browse/${key}`, false);
    await page.getByRole('link', { name: 'Edit fix versions' }).click();
    await page.waitForURL(at(`/browse/${key}/edit/fix_versions`));
    await page.getByRole('checkbox', { name: '1.0' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(at(`/browse/${key}`));
    expect(await status(page)).toContain(`Changed the fix versions of ${key}`);
    expect(await versions(key)).toEqual({ fix_versions: ['1.0'], affected_versions: [] });

    await page.getByRole('link', { name: 'Edit fix versions' }).click();
    await page.getByRole('checkbox', { name: '1.0' }).uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(at(`/browse/${key}`));
    expect(await versions(key)).toEqual({ fix_versions: [], affected_versions: [] });
    await context.close();
  });
});

describe('only a member who may edit the ticket is offered the versions', () => {
  it('a viewer of ATR sees the versions without an Edit link', async () => {
    const key = await aTicket('Versions read only');
    const { context, page } = await as(JORDAN, `/browse/${key}`);
    await page.locator('#fix-versions').waitFor();
    expect(await page.getByRole('link', { name: 'Edit fix versions' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit affected versions' }).count()).toBe(0);
    await context.close();
  });
});

describe('create a ticket with fix versions: set right after create_ticket, as the member', () => {
  for (const javaScript of [true, false]) {
    it(`${javaScript ? 'with' : 'without'} JavaScript, the new ticket has the versions checked`, async () => {
      const { context, page } = await as(MARCO, '/tickets/new?project=ATR', javaScript);
      await page.getByLabel('Type').selectOption('Task');
      await page.getByLabel('Summary').fill(`Created with versions ${javaScript ? 'and' : 'without'} script`);
      const choices = page.getByRole('group', { name: 'Fix versions' });
      await choices.getByRole('checkbox', { name: '1.1' }).check();
      await choices.getByRole('checkbox', { name: '2.0' }).check();
      if (javaScript) await expectAccessible(page, 'create-ticket form with fix versions checked');
      await page.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(/\/browse\/ATR-\d+$/);
      const key = page.url().split('/').pop()!;
      expect(await status(page)).toContain(`Created ${key}`);
      expect(await versions(key)).toEqual({ fix_versions: ['1.1', '2.0'], affected_versions: [] });
      await context.close();
    });
  }

  it('keeps the ticket when its versions are refused, and says so on its page', async () => {
    const { context, page } = await as(MARCO, '/tickets/new?project=ATR');
    await page.getByLabel('Type').selectOption('Task');
    await page.getByLabel('Summary').fill('Created, its versions refused');
    // the type's request redraws the versions: the change below must come after it
    await settled(page);
    // a version gone since the form was drawn
    await page
      .getByRole('group', { name: 'Fix versions' })
      .getByRole('checkbox', { name: '1.1' })
      .evaluate((box) => {
        (box as HTMLInputElement).value = 'Gone';
        (box as HTMLInputElement).checked = true;
      });
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/browse\/ATR-\d+$/);
    const key = page.url().split('/').pop()!;
    const said = await page.getByRole('alert').first().textContent();
    expect(said).toContain(`Created ${key}`);
    expect(said).toContain('Its fix versions were not set: /fix_versions/0: no version "Gone"');
    await expectAccessible(page, 'a new ticket whose versions were refused');
    expect((await call('GET', `/tickets/${key}`, witness)).json).toMatchObject({
      summary: 'Created, its versions refused',
      fix_versions: [],
    });
    await context.close();
  });
});
