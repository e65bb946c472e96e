import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { decodeEntities, formFields, type Browser, type Exchange } from '../oauth/support.ts';
import { api, EXTRAS_WORKSPACE, memberBrowser, tokenFor } from './extras-support.ts';

// A ticket's fix and affected versions (spec 2.4, Ticket) are set in the browser: neither POST
// /tickets nor PATCH /tickets/{key} takes them, so set_ticket_versions (the web door only) does.
// It is an edit (ticket:edit, spec 5.6); each list sent replaces the ticket's; names resolve as
// every name does, an unknown one 422 at its pointer; a change is one history entry, no change
// none. The REST API is the witness.

const WORKSPACE = `${EXTRAS_WORKSPACE}    versions: ['1.0', '1.1', '2.0', { name: '0.9', released: true, archived: true }]
`;

let service: TestService;
let lee: string;
let witness: string;
const browsers: Record<string, Browser> = {};

beforeAll(async () => {
  service = await startTestService({ workspace: WORKSPACE });
  lee = await service.token('lee@example.com', 'write', 'Lee agent');
  witness = await service.token('ada@example.com', 'read', 'Witness');
  for (const who of ['lee', 'dev', 'vic']) browsers[who] = await memberBrowser(service, who);
});
afterAll(async () => service?.close());

async function ticket(): Promise<string> {
  const created = await api(service, lee, 'POST', '/tickets', { project: 'CORE', summary: `Versioned ${Math.random()}` });
  expect(created.status).toBe(201);
  return created.json.key as string;
}

/** The ticket's versions as GET /tickets/{key} answers them. */
async function versions(key: string): Promise<{ fix: string[]; affected: string[] }> {
  const read = await api(service, witness, 'GET', `/tickets/${key}`);
  expect(read.status).toBe(200);
  return { fix: read.json.fix_versions as string[], affected: read.json.affected_versions as string[] };
}

type List = 'fix_versions' | 'affected_versions';

/**
 * The versions form of the ticket page, sent without script: the boxes checked, with the hidden
 * empty value the form always sends. A member shown no form sends the token their session would carry.
 */
function setList(who: string, key: string, list: List, names: readonly string[]): Promise<Exchange> {
  const browser = browsers[who]!;
  const action = `/browse/${key}/edit/${list}`;
  return browser.request('POST', action, { form: { csrf: tokenFor(browser, action), [list]: ['', ...names] } });
}

/** The History section's entries, each as its words. */
async function history(key: string): Promise<string[]> {
  const page = await browsers.vic!.get(`/browse/${key}`);
  const list = /<ol id="history-entries">(.*?)<\/ol>/s.exec(page.text)?.[1] ?? '';
  return [...list.matchAll(/<li class="history-entry">(.*?)<\/li>/gs)].map((m) =>
    decodeEntities(m[1]!.replace(/<time[^>]*>[^<]*<\/time>/g, '').replace(/<[^>]+>/g, ' '))
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

describe('setting versions is an edit: ticket:edit on the ticket (spec 5.6)', () => {
  it('a lead sets them; the form is offered to them', async () => {
    const key = await ticket();
    const page = await browsers.lee!.get(`/browse/${key}`);
    expect(page.text).toContain(`href="/browse/${key}/edit/fix_versions"`);
    expect(
      formFields((await browsers.lee!.get(`/browse/${key}/edit/fix_versions`)).text, `/browse/${key}/edit/fix_versions`).csrf,
    ).toBeTruthy();
    const set = await setList('lee', key, 'fix_versions', ['1.1']);
    expect(set.status).toBe(303);
    expect(set.location).toBe(`/browse/${key}`);
    expect(await versions(key)).toEqual({ fix: ['1.1'], affected: [] });
  });

  it('a viewer is not offered the form and is refused (403), nothing changed', async () => {
    const key = await ticket();
    const page = await browsers.vic!.get(`/browse/${key}`);
    expect(page.text).not.toContain(`/browse/${key}/edit/fix_versions`);
    expect(page.text).not.toContain(`/browse/${key}/edit/affected_versions`);
    const refused = await setList('vic', key, 'affected_versions', ['1.0']);
    expect(refused.status).toBe(403);
    expect(await versions(key)).toEqual({ fix: [], affected: [] });
  });

  it('a developer with ticket:edit_own sets them on their own ticket only', async () => {
    const mine = await api(service, await service.token('dev@example.com', 'write'), 'POST', '/tickets', {
      project: 'CORE',
      summary: 'Mine',
    });
    expect((await setList('dev', mine.json.key, 'affected_versions', ['1.0'])).status).toBe(303);
    expect(await versions(mine.json.key)).toEqual({ fix: [], affected: ['1.0'] });
    const theirs = await ticket();
    expect((await setList('dev', theirs, 'affected_versions', ['1.0'])).status).toBe(403);
    expect(await versions(theirs)).toEqual({ fix: [], affected: [] });
  });
});

describe('names resolve case-insensitively; an unknown one is 422 at its pointer', () => {
  it('takes " 2.0 " and "1.0" in any case, and lists them in the project’s order', async () => {
    const key = await ticket();
    expect((await setList('lee', key, 'fix_versions', [' 2.0 ', '1.0', '2.0'])).status).toBe(303);
    expect(await versions(key)).toEqual({ fix: ['1.0', '2.0'], affected: [] });
  });

  it('refuses an unknown version at /fix_versions/1, with the form drawn again and nothing changed', async () => {
    const key = await ticket();
    const refused = await setList('lee', key, 'fix_versions', ['1.0', '3.0']);
    expect(refused.status).toBe(422);
    const text = decodeEntities(refused.text);
    expect(text).toContain('id="field-fix_versions-error"');
    // the pointer's field (/fix_versions/1) holds the reason; the page says it without the pointer
    expect(text).toMatch(
      /<p class="field-error" id="field-fix_versions-error">No version "3\.0"; versions are "1\.0", "1\.1", "2\.0"<\/p>/,
    );
    expect(text).toMatch(/value="1\.0" checked/);
    expect(await versions(key)).toEqual({ fix: [], affected: [] });
  });

  it('refuses an archived version not already on the list', async () => {
    const key = await ticket();
    const refused = await setList('lee', key, 'affected_versions', ['0.9']);
    expect(refused.status).toBe(422);
    expect(decodeEntities(refused.text)).toContain('<p class="field-error" id="field-affected_versions-error">No version "0.9";');
  });
});

describe('each list sent replaces the ticket’s; the other is left as it was', () => {
  it('replaces the fix versions, empties them, and keeps the affected ones throughout', async () => {
    const key = await ticket();
    await setList('lee', key, 'affected_versions', ['1.0']);
    await setList('lee', key, 'fix_versions', ['1.0', '1.1']);
    expect(await versions(key)).toEqual({ fix: ['1.0', '1.1'], affected: ['1.0'] });
    await setList('lee', key, 'fix_versions', ['2.0']);
    expect(await versions(key)).toEqual({ fix: ['2.0'], affected: ['1.0'] });
    await setList('lee', key, 'fix_versions', []);
    expect(await versions(key)).toEqual({ fix: [], affected: ['1.0'] });
  });
});

describe('a change is one history entry with the lists that changed; no change, no entry', () => {
  it('records from and to by name, done in the browser', async () => {
    const key = await ticket();
    const before = (await history(key)).length;
    await setList('lee', key, 'fix_versions', ['1.0', '1.1']);
    const entries = await history(key);
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)).toMatch(/^Lee Lead changed the ticket in the browser .*Fix versions: none → 1\.0, 1\.1/);
    await setList('lee', key, 'fix_versions', ['1.1']);
    expect((await history(key)).at(-1)).toMatch(/Fix versions: 1\.0, 1\.1 → 1\.1/);
  });

  it('records nothing when the lists sent are as they were', async () => {
    const key = await ticket();
    await setList('lee', key, 'fix_versions', ['1.1']);
    const before = await history(key);
    expect((await setList('lee', key, 'fix_versions', ['1.1'])).status).toBe(303);
    expect((await setList('lee', key, 'affected_versions', [])).status).toBe(303);
    expect(await history(key)).toEqual(before);
    expect(await versions(key)).toEqual({ fix: ['1.1'], affected: [] });
  });
});
