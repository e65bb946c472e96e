import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { api, startKnowledge, type KnowledgeTokens } from '../knowledge/support.ts';

// A search document holds at most 1 MB of words and positions: a million characters of distinct
// words hold half as much again. The text is stored whole, and found by as many of its first
// words as fit (ADR 0064).
const SLOW = 180_000;

/** `first`, then distinct words (`<stem><n>`) to exactly `length` characters, then `last`. */
function distinctWords(length: number, stem: string): string {
  const first = `${stem}first`;
  const last = ` ${stem}last`;
  const words = [first];
  let size = first.length;
  for (let n = 0; size < length - last.length; n += 1) {
    const word = ` ${stem}${n.toString(36)}`;
    words.push(word);
    size += word.length;
  }
  return words.join('').slice(0, length - last.length) + last;
}

let service: TestService;
let t: KnowledgeTokens;
let pages: ReturnType<typeof api>;

beforeAll(async () => {
  ({ service, t } = await startKnowledge());
  pages = api(service);
});
afterAll(() => service.close());

const call = (method: string, path: string, body?: unknown) => service.request(method, `/api/v1${path}`, { token: t.lee, body });
const foundPages = async (query: string) =>
  (await pages(t.lee, 'GET', `/search?query=${query}&space=ENG`)).body.pages.map((p: { slug: string }) => p.slug);
const foundTickets = async (query: string) =>
  (await call('GET', `/tickets?query=${query}&project=CORE`)).body.tickets.map((x: { key: string }) => x.key);

describe('8 a text too rich in words for one search document is stored whole and found by its first words', () => {
  it(
    'a page body of 1,000,000 characters in distinct words: stored, read back, found by its first words',
    async () => {
      const body = distinctWords(1_000_000, 'pagew');
      const created = await pages(t.dev1, 'POST', '/spaces/ENG/pages', { title: 'Wordy zebrafish', body });
      expect(created.status, created.text.slice(0, 300)).toBe(201);
      const read = await pages(t.vic, 'GET', '/spaces/ENG/pages/wordy-zebrafish');
      expect(read.body.body.text === body).toBe(true);
      expect(await foundPages('zebrafish')).toEqual(['wordy-zebrafish']);
      expect(await foundPages('pagewfirst')).toEqual(['wordy-zebrafish']);
      expect(await foundPages('pagew10')).toEqual(['wordy-zebrafish']);
      // the words past what the document holds are not in it
      expect(await foundPages('pagewlast')).toEqual([]);
    },
    SLOW,
  );

  it(
    'a body replaced by one too rich in words: saved, and found by its own first words',
    async () => {
      const created = await pages(t.dev1, 'POST', '/spaces/ENG/pages', { title: 'Rewritten otter', body: 'short' });
      expect(created.status).toBe(201);
      const body = distinctWords(1_000_000, 'otterw');
      const changed = await pages(t.dev1, 'PATCH', '/spaces/ENG/pages/rewritten-otter', { body });
      expect(changed.status, changed.text.slice(0, 300)).toBe(200);
      expect(await foundPages('otterwfirst')).toEqual(['rewritten-otter']);
      expect(await foundPages('short')).not.toContain('rewritten-otter');
    },
    SLOW,
  );

  it(
    'a ticket description as long as a request holds: created, read back, found by its first words',
    async () => {
      const description = distinctWords(1_000_000, 'descw');
      const created = await call('POST', '/tickets', { project: 'CORE', summary: 'Wordy platypus', description });
      expect(created.status, created.text.slice(0, 300)).toBe(201);
      const key = created.body.key as string;
      expect((await call('GET', `/tickets/${key}`)).body.description.text === description).toBe(true);
      expect(await foundTickets('platypus')).toEqual([key]);
      expect(await foundTickets('descwfirst')).toEqual([key]);

      // comments too rich in words join the ticket's document while they fit, and are all kept
      const comment = distinctWords(1_000_000, 'commw');
      for (const body of [comment, 'a short word: kiwifruit']) {
        const added = await call('POST', `/tickets/${key}/comments`, { body });
        expect(added.status, added.text.slice(0, 300)).toBe(201);
      }
      const read = await call('GET', `/tickets/${key}`);
      expect(read.body.comments.map((c: { body: { text: string } }) => c.body.text.length)).toEqual([comment.length, 23]);
      expect(await foundTickets('platypus')).toEqual([key]);
      expect(await foundTickets('descwfirst')).toEqual([key]);
    },
    SLOW,
  );

  it(
    'a comment too rich in words on a short ticket: found by its first words, also after a change',
    async () => {
      const created = await call('POST', '/tickets', { project: 'CORE', summary: 'Quiet wombat' });
      const key = created.body.key as string;
      const added = await call('POST', `/tickets/${key}/comments`, { body: distinctWords(1_000_000, 'talkw') });
      expect(added.status, added.text.slice(0, 300)).toBe(201);
      expect(await foundTickets('talkwfirst')).toEqual([key]);
      expect(await foundTickets('wombat')).toEqual([key]);
      const changed = await call('PATCH', `/tickets/${key}`, { summary: 'Quiet numbat' });
      expect(changed.status).toBe(200);
      expect(await foundTickets('numbat')).toEqual([key]);
      expect(await foundTickets('talkwfirst')).toEqual([key]);
    },
    SLOW,
  );
});
