import { databaseCommands } from '../../src/cli/database-commands.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { decodeEntities, type Browser } from '../oauth/support.ts';
import { api, EXTRAS_WORKSPACE, memberBrowser, postForm, tokenFor, upload } from './extras-support.ts';

// Votes and a ticket's history (spec 1: the browser's). Whoever may see a ticket may vote for it,
// once, but not its reporter; the history is every change the service recorded, oldest first,
// with the member and — for an agent — the token's name.

let service: TestService;
let lee: string;
const browsers: Record<string, Browser> = {};

beforeAll(async () => {
  service = await startTestService({ workspace: EXTRAS_WORKSPACE });
  lee = await service.token('lee@example.com', 'write', 'Lee agent');
  for (const who of ['lee', 'dev', 'vic', 'olga']) browsers[who] = await memberBrowser(service, who);
});
afterAll(async () => service?.close());

async function ticket(summary = 'Wanted'): Promise<string> {
  const created = await api(service, lee, 'POST', '/tickets', { project: 'CORE', summary });
  expect(created.status).toBe(201);
  return created.json.key as string;
}

/** The Votes section as a member reads it: the count and who voted. */
async function votes(who: string, key: string): Promise<{ count: string; voters: string[] }> {
  const page = await browsers[who]!.get(`/browse/${key}`);
  const count = /<p id="vote-count">([^<]*)<\/p>/.exec(page.text)?.[1] ?? '';
  const list = /<ul id="voters"[^>]*>(.*?)<\/ul>/s.exec(page.text)?.[1] ?? '';
  return { count, voters: [...list.matchAll(/<a [^>]*>([^<]*)<\/a>/g)].map((m) => m[1]!) };
}

describe('whoever may see a ticket votes for it once, and takes the vote back', () => {
  it('counts Dev and Vic once each, whoever reads it, and one fewer after Remove my vote', async () => {
    const key = await ticket();
    expect((await postForm(browsers.dev!, `/browse/${key}`, `/browse/${key}/vote`)).status).toBe(303);
    // a second vote (the form sent again) keeps one
    const again = await browsers.dev!.post(`/browse/${key}/vote`, { csrf: tokenFor(browsers.dev!, `/browse/${key}/vote`) });
    expect(again.status).toBe(303);
    expect((await postForm(browsers.vic!, `/browse/${key}`, `/browse/${key}/vote`)).status).toBe(303);
    expect(await votes('lee', key)).toEqual({ count: '2 votes', voters: ['Dev Worker', 'Vic Viewer'] });
    expect((await postForm(browsers.dev!, `/browse/${key}`, `/browse/${key}/unvote`)).status).toBe(303);
    expect(await votes('lee', key)).toEqual({ count: '1 vote', voters: ['Vic Viewer'] });
  });
});

describe('a reporter does not vote for their own ticket', () => {
  it('shows Lee why, with no Vote button, and refuses the vote with 403', async () => {
    const key = await ticket();
    const page = await browsers.lee!.get(`/browse/${key}`);
    expect(page.text).not.toContain(`action="/browse/${key}/vote"`);
    expect(decodeEntities(page.text)).toContain(`You reported ${key}: a reporter does not vote for their own ticket.`);
    const refused = await browsers.lee!.post(`/browse/${key}/vote`, { csrf: tokenFor(browsers.lee!, `/browse/${key}/vote`) });
    expect(refused.status).toBe(403);
    expect((await votes('dev', key)).count).toBe('0 votes');
  });
});

describe('a member who cannot see the ticket neither votes nor reads its votes or history', () => {
  it('answers Olga 404 and counts nothing', async () => {
    const key = await ticket();
    expect((await browsers.olga!.get(`/browse/${key}`)).status).toBe(404);
    const refused = await browsers.olga!.post(`/browse/${key}/vote`, { csrf: tokenFor(browsers.olga!, `/browse/${key}/vote`) });
    expect(refused.status).toBe(404);
    expect((await votes('dev', key)).count).toBe('0 votes');
  });
});

/** The History section's entries, each as its words. */
async function history(who: string, key: string): Promise<string[]> {
  const page = await browsers[who]!.get(`/browse/${key}`);
  const list = /<ol id="history-entries">(.*?)<\/ol>/s.exec(page.text)?.[1] ?? '';
  return [...list.matchAll(/<li class="history-entry">(.*?)<\/li>/gs)].map((m) =>
    decodeEntities(m[1]!.replace(/<time[^>]*>[^<]*<\/time>/g, '').replace(/<[^>]+>/g, ' '))
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

describe('the history shows every change of the ticket, oldest first, with the member and the agent’s token', () => {
  it('reads the API’s changes with the token’s name and the browser’s without one', async () => {
    const key = await ticket('Recorded');
    expect((await api(service, lee, 'PATCH', `/tickets/${key}`, { summary: 'Recorded again', priority: 'High' })).status).toBe(200);
    expect((await api(service, lee, 'POST', `/tickets/${key}/transitions`, { transition: 'Start' })).status).toBe(200);
    expect((await api(service, lee, 'POST', `/tickets/${key}/comments`, { body: 'Looked at it' })).status).toBe(201);
    expect((await upload(service, browsers.dev!, key, [{ name: 'log.txt', type: 'text/plain', content: Buffer.from('x') }])).status).toBe(
      303,
    );
    const entries = await history('vic', key);
    expect(entries).toEqual([
      expect.stringMatching(/^Lee Lead created the ticket via Lee agent/),
      expect.stringMatching(/^Lee Lead changed the ticket via Lee agent .*Summary: Recorded → Recorded again.*Priority: Medium → High/),
      expect.stringMatching(/^Lee Lead moved the ticket through its workflow via Lee agent .*Status: To Do → In Progress/),
      expect.stringMatching(/^Lee Lead commented via Lee agent/),
      expect.stringMatching(/^Dev Worker attached in the browser .*Attachment: log.txt/),
    ]);
    // the deletion is recorded too, after the rest
    const link = /<a href="(\/browse\/[^"]+\/attachments\/[0-9a-f-]{36})">log.txt<\/a>/.exec(
      (await browsers.dev!.get(`/browse/${key}`)).text,
    )![1]!;
    expect((await postForm(browsers.dev!, `/browse/${key}`, `${link}/delete`)).status).toBe(303);
    expect((await history('vic', key)).at(-1)).toMatch(/^Dev Worker deleted an attachment in the browser .*Attachment: log.txt → none/);
  });
});

describe('a read-only workspace takes no vote and no file, and still shows them', () => {
  it('refuses both with 403 naming the read-only workspace; the ticket page reads as before', async () => {
    const key = await ticket();
    const cli = (...argv: string[]) => databaseCommands.get('settings set')!.execute(service.db, argv, { opening: null, pglite: null });
    await cli('read_only', 'on');
    try {
      const vote = await browsers.dev!.post(`/browse/${key}/vote`, { csrf: tokenFor(browsers.dev!, `/browse/${key}/vote`) });
      expect(vote.status).toBe(403);
      expect(vote.text).toContain('This workspace is read-only');
      const sent = await upload(service, browsers.dev!, key, [{ name: 'late.txt', type: 'text/plain', content: Buffer.from('no') }]);
      expect(sent.status).toBe(403);
      expect((await votes('vic', key)).count).toBe('0 votes');
      expect(await history('vic', key)).toHaveLength(1);
    } finally {
      await cli('read_only', 'off');
    }
  });
});
