import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, startTestService, type TestService } from '../helpers/service.ts';
import { loggedIn } from '../oauth/support.ts';

// A ticket's description and comments are bounded only by the request (1 MiB): these fill most of
// it in the shapes that took the Markdown reader time growing with the square of their length.
const SLOW = 180_000;

/** `unit` repeated to exactly `length` characters. */
const filled = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

// Imported wiki text (workspace file only) that took jira2md exponential and quadratic time.
const TABLE_BARS = `${'||a'.repeat(40)}| x`;
const IMPORTED = `h3. Imported\n${TABLE_BARS}\n${filled('{code:java}a\n', 260_000)}\n${filled('[', 100_000)}`;
const IMPORTED_TICKET = `      - number: 5
        summary: Imported and large
        type: Bug
        reporter: lee@example.com
        description_format: imported_wiki
        description: ${JSON.stringify(IMPORTED)}
  - key: HIDE`;

let service: TestService;
let lee: string;

beforeAll(async () => {
  const workspace = fs.readFileSync(new URL('pages-workspace.yaml', FIXTURES), 'utf8');
  if (!workspace.includes('\n  - key: HIDE')) throw new Error('the pages fixture no longer lists HIDE after CORE');
  service = await startTestService({ workspace: workspace.replace('  - key: HIDE', IMPORTED_TICKET) });
  lee = await service.token('lee@example.com', 'write', 'Lee agent');
});
afterAll(() => service?.close());

const call = (method: string, path: string, body?: unknown) => service.request(method, `/api/v1${path}`, { token: lee, body });
const mentionsOf = (key: string) =>
  service.db
    .selectFrom('notifications as n')
    .innerJoin('tickets as t', 't.id', 'n.entity_id')
    .innerJoin('members as m', 'm.id', 'n.member_id')
    .select(['m.username', 'n.kind'])
    .where('t.key', '=', key)
    .where('n.kind', '=', 'mentioned')
    .execute();

describe('4.2 a description or comment as large as a request holds is stored, read, shown, its mentions found', () => {
  it(
    'a description of lazy quote lines: created, read back whole, its mention notified, its page shown',
    async () => {
      const description = `> over to @dev2\n${filled('b\n', 600_000)}`;
      const created = await call('POST', '/tickets', { project: 'CORE', summary: 'Long description', description });
      expect(created.status, created.text.slice(0, 300)).toBe(201);
      expect(await mentionsOf(created.body.key)).toEqual([{ username: 'dev2', kind: 'mentioned' }]);
      const read = await call('GET', `/tickets/${created.body.key}`);
      expect(read.body.description.text === description).toBe(true);
      const page = await (await loggedIn(service, 'dev2')).get(`/browse/${created.body.key}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<blockquote>\n<p>over to @dev2\nb\nb\n');
    },
    SLOW,
  );

  it(
    'a comment of list items: added, read back whole, its mention notified',
    async () => {
      const body = `${filled('- a\n', 800_000)}- for @dev2\n`;
      const commented = await call('POST', '/tickets/CORE-4/comments', { body });
      expect(commented.status, commented.text.slice(0, 300)).toBe(201);
      expect(await mentionsOf('CORE-4')).toEqual([{ username: 'dev2', kind: 'mentioned' }]);
      const read = await call('GET', '/tickets/CORE-4');
      expect(read.body.comments.at(-1).body.text === body).toBe(true);
      const page = await (await loggedIn(service, 'dev2')).get('/browse/CORE-4');
      expect(page.status).toBe(200);
      expect(page.text).toContain('<li>for @dev2</li>');
    },
    SLOW,
  );

  it(
    'imported wiki text of unclosed blocks and a line of table bars: read as Markdown and shown',
    async () => {
      const read = await call('GET', '/tickets/CORE-5');
      expect(read.status).toBe(200);
      expect(read.body.description.text).toBe(IMPORTED);
      const markdown: string = read.body.description.markdown;
      expect(markdown.startsWith(`### Imported\n${TABLE_BARS}\n{code:java}a\n`)).toBe(true);
      expect(markdown.endsWith(filled('[', 100_000))).toBe(true);
      const page = await (await loggedIn(service, 'dev2')).get('/browse/CORE-5');
      expect(page.status).toBe(200);
      expect(page.text).toContain('<h3>Imported</h3>');
    },
    SLOW,
  );
});
