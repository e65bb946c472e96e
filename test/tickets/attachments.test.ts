import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { errorBody } from '../../src/core/errors.ts';
import { fileTooLarge } from '../../src/modules/tickets/index.ts';
import { formFields, type Browser } from '../oauth/support.ts';
import { api, EXTRAS_WORKSPACE, memberBrowser, postForm, postMultipart, tokenFor, upload } from './extras-support.ts';

// Attachments (spec 1: the browser's): stored in the database, limited per file by the
// administrator's setting, listed and served only to who may see the ticket, served so that
// nothing in a file runs; every refusal stores nothing.

let service: TestService;
let lee: string;
const browsers: Record<string, Browser> = {};

beforeAll(async () => {
  service = await startTestService({ workspace: EXTRAS_WORKSPACE });
  lee = await service.token('lee@example.com', 'write', 'Lee agent');
  for (const who of ['ada', 'lee', 'dev', 'vic', 'olga']) browsers[who] = await memberBrowser(service, who);
});
afterAll(async () => service?.close());

async function ticket(summary = 'With files'): Promise<string> {
  const created = await api(service, lee, 'POST', '/tickets', { project: 'CORE', summary });
  expect(created.status).toBe(201);
  return created.json.key as string;
}

const text = (words: string) => Buffer.from(words, 'utf8');
const file = (name: string, content: Buffer, type = 'text/plain') => ({ name, type, content });

/** The download links of the ticket page's Attachments section, by file name. */
async function listed(who: string, key: string): Promise<Map<string, string>> {
  const page = await browsers[who]!.get(`/browse/${key}`);
  const links = new Map<string, string>();
  for (const match of page.text.matchAll(/<a href="(\/browse\/[^"]+\/attachments\/[0-9a-f-]{36})">([^<]*)<\/a>/g))
    links.set(match[2]!, match[1]!);
  return links;
}

async function setLimit(megabytes: number): Promise<void> {
  const saved = await postForm(browsers.ada!, '/admin/settings', '/admin/settings/attachments', { max_megabytes: String(megabytes) });
  expect(saved.status).toBe(303);
}

describe('a member who may comment attaches several files at once, and every member who sees the ticket downloads them', () => {
  it('stores them in the database, lists them on the ticket page and serves their bytes as they were sent', async () => {
    const key = await ticket();
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 13]);
    const sent = await upload(service, browsers.dev!, key, [
      file('notes.txt', text('first words')),
      file('data.bin', bytes, 'application/octet-stream'),
    ]);
    expect(sent.status).toBe(303);
    expect(sent.location).toBe(`/browse/${key}#attachments`);
    const links = await listed('vic', key);
    expect([...links.keys()]).toEqual(['notes.txt', 'data.bin']);
    const notes = await browsers.vic!.get(links.get('notes.txt')!);
    expect(notes.text).toBe('first words');
    // Lee, its reporter, watches it: he is told, as of any change
    const told = await browsers.lee!.get('/notifications');
    expect(told.text).toContain(`Dev Worker changed ${key}`);
    expect(told.text).toContain('Changed: attachments');
    const data = await service.app.inject({
      method: 'GET',
      url: links.get('data.bin')!,
      headers: { cookie: browsers.lee!.cookieHeader() },
    });
    expect(data.rawPayload.equals(bytes)).toBe(true);
  });
});

describe('a download is served so that nothing in the file runs', () => {
  it('sends HTML and SVG as an attachment of plain bytes, with nosniff and a sandboxing policy, and a safe file name', async () => {
    const key = await ticket();
    await upload(service, browsers.lee!, key, [
      file('../../etc/"evil"\u0007page.html', text('<script>alert(1)</script>'), 'text/html'),
      file('drawing.svg', text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'image/svg+xml'),
      file('photo.png', Buffer.from('89504e470d0a1a0a', 'hex'), 'image/png'),
    ]);
    const links = await listed('lee', key);
    expect([...links.keys()]).toEqual(['evilpage.html', 'drawing.svg', 'photo.png']);
    for (const name of ['evilpage.html', 'drawing.svg']) {
      const served = await browsers.lee!.get(links.get(name)!);
      expect(served.headers['content-type']).toBe('application/octet-stream');
      expect(served.headers['content-disposition']).toBe(`attachment; filename="${name}"; filename*=UTF-8''${name}`);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    }
    const photo = await browsers.lee!.get(links.get('photo.png')!);
    expect(photo.headers['content-type']).toBe('image/png');
    expect(photo.headers['content-disposition']).toMatch(/^inline; filename="photo.png"/);
    expect(photo.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  });
});

describe('a file over the per-file limit is refused with 413 payload_too_large, and nothing of the upload is stored', () => {
  it('holds to the administrator’s setting: 1 MB refuses a file of 1 MB and a byte, with the one before it', async () => {
    const key = await ticket();
    await setLimit(1);
    try {
      const refused = await upload(service, browsers.lee!, key, [
        file('small.txt', text('fits')),
        file('large.bin', Buffer.alloc(1024 * 1024 + 1, 7), 'application/octet-stream'),
      ]);
      expect(refused.status).toBe(413);
      expect(refused.text).toContain('large.bin is larger than 1 MB, the largest file this workspace takes; nothing was attached');
      expect([...(await listed('lee', key)).keys()]).toEqual([]);
      // exactly at the limit is taken
      const taken = await upload(service, browsers.lee!, key, [
        file('exact.bin', Buffer.alloc(1024 * 1024, 7), 'application/octet-stream'),
      ]);
      expect(taken.status).toBe(303);
      expect([...(await listed('lee', key)).keys()]).toEqual(['exact.bin']);
    } finally {
      await setLimit(25);
    }
  });

  it('is said in the spec’s error shape, and with htmx at the top of the page, still 413', async () => {
    const refusal = fileTooLarge('big.iso', 1024 * 1024);
    expect([refusal.status, errorBody(refusal.code, refusal.message)]).toEqual([
      413,
      {
        error: {
          code: 'payload_too_large',
          message: 'big.iso is larger than 1 MB, the largest file this workspace takes; nothing was attached',
        },
      },
    ]);
    const key = await ticket();
    await setLimit(1);
    try {
      const page = await browsers.lee!.get(`/browse/${key}`);
      const csrf = formFields(page.text, `/browse/${key}/attachments`).csrf!;
      const refused = await postMultipart(
        service,
        browsers.lee!,
        `/browse/${key}/attachments`,
        { csrf },
        [file('big.iso', Buffer.alloc(2 * 1024 * 1024, 1), 'application/octet-stream')],
        { 'hx-request': 'true' },
      );
      expect(refused.status).toBe(413);
      expect(refused.text).toContain('big.iso is larger than 1 MB');
      expect([...(await listed('lee', key)).keys()]).toEqual([]);
    } finally {
      await setLimit(25);
    }
  });

  it('refuses a limit outside 1 to 1024 MB at its field, with what was typed', async () => {
    const wrong = await postForm(browsers.ada!, '/admin/settings', '/admin/settings/attachments', { max_megabytes: '0' });
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain('Must be &gt;= 1');
    expect(wrong.text).toMatch(/name="max_megabytes" value="0"/);
    const settings = await browsers.ada!.get('/admin/settings');
    expect(settings.text).toMatch(/name="max_megabytes" value="25"/);
  });
});

describe('only a member who may see the ticket lists, downloads, attaches or deletes its files', () => {
  it('answers 404 to a member outside the project, and stores nothing', async () => {
    const key = await ticket();
    await upload(service, browsers.lee!, key, [file('secret.txt', text('hidden'))]);
    const link = (await listed('lee', key)).get('secret.txt')!;
    expect((await browsers.olga!.get(`/browse/${key}`)).status).toBe(404);
    expect((await browsers.olga!.get(link)).status).toBe(404);
    // her own session's form tokens: the operations themselves refuse
    const action = `/browse/${key}/attachments`;
    const attempt = await postMultipart(service, browsers.olga!, action, { csrf: tokenFor(browsers.olga!, action) }, [
      file('in.txt', text('no')),
    ]);
    expect(attempt.status).toBe(404);
    expect(attempt.text).toContain(`Ticket ${key} not found`);
    const removal = await browsers.olga!.post(`${link}/delete`, { csrf: tokenFor(browsers.olga!, `${link}/delete`) });
    expect(removal.status).toBe(404);
    expect([...(await listed('lee', key)).keys()]).toEqual(['secret.txt']);
  });

  it('answers 403 forbidden to a viewer who may not comment, and stores nothing', async () => {
    const key = await ticket();
    const page = await browsers.vic!.get(`/browse/${key}`);
    expect(page.text).not.toContain(`action="/browse/${key}/attachments"`);
    const refused = await upload(service, browsers.vic!, key, [file('viewer.txt', text('no'))]);
    expect(refused.status).toBe(403);
    expect([...(await listed('lee', key)).keys()]).toEqual([]);
  });
});

describe('an attachment is deleted by its uploader or by a member who may edit any ticket of the project', () => {
  it('lets Dev delete his own and not Lee’s; lets Lee delete Dev’s', async () => {
    const key = await ticket();
    await upload(service, browsers.dev!, key, [file('dev.txt', text('by dev'))]);
    await upload(service, browsers.lee!, key, [file('lee.txt', text('by lee'))]);
    const links = await listed('dev', key);
    const page = await browsers.dev!.get(`/browse/${key}`);
    expect(page.text).toContain(`action="${links.get('dev.txt')}/delete"`);
    expect(page.text).not.toContain(`action="${links.get('lee.txt')}/delete"`);
    expect(page.text).toContain('aria-label="Delete dev.txt"');
    expect((await postForm(browsers.dev!, `/browse/${key}`, `${links.get('dev.txt')}/delete`)).status).toBe(303);
    const leeFile = `${links.get('lee.txt')}/delete`;
    const refused = await browsers.dev!.post(leeFile, { csrf: tokenFor(browsers.dev!, leeFile) });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('needs ticket:edit');
    expect([...(await listed('lee', key)).keys()]).toEqual(['lee.txt']);
    await upload(service, browsers.dev!, key, [file('dev-again.txt', text('again'))]);
    const again = (await listed('lee', key)).get('dev-again.txt')!;
    expect((await postForm(browsers.lee!, `/browse/${key}`, `${again}/delete`)).status).toBe(303);
    expect([...(await listed('lee', key)).keys()]).toEqual(['lee.txt']);
  });
});

describe('a ticket is found by the names of its attachments (spec 4.2)', () => {
  it('finds it by a file name and by a part of one while the file is there, and no more once it is deleted', async () => {
    const key = await ticket('Crashes on start');
    const found = async (query: string) =>
      ((await api(service, lee, 'GET', `/tickets?query=${encodeURIComponent(query)}`)).json.tickets as { key: string }[]).map((t) => t.key);
    expect(await found('zebrafish')).not.toContain(key);
    await upload(service, browsers.dev!, key, [file('zebrafish-trace_2026.log', text('trace'))]);
    expect(await found('zebrafish')).toContain(key);
    expect(await found('zebrafish-trace_2026.log')).toContain(key);
    const before = (await api(service, lee, 'GET', `/tickets/${key}`)).json.updated_at;
    const link = (await listed('dev', key)).get('zebrafish-trace_2026.log')!;
    expect((await postForm(browsers.dev!, `/browse/${key}`, `${link}/delete`)).status).toBe(303);
    expect(await found('zebrafish')).not.toContain(key);
    // a change of the ticket like any other
    expect((await api(service, lee, 'GET', `/tickets/${key}`)).json.updated_at > before).toBe(true);
  });
});
