import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { api, callTool, startKnowledge, type KnowledgeTokens } from './support.ts';

const MAX = 1_000_000;
// a million characters are a few megabytes to send and read back on a busy machine
const SLOW = 180_000;

/** `unit` repeated to exactly `length` characters. */
const filled = (unit: string, length = MAX) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
const lines = (count: number, line: string) => Array.from({ length: count }, () => line).join('\n');

let service: TestService;
let t: KnowledgeTokens;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  ({ service, t } = await startKnowledge());
  call = api(service);
});
afterAll(() => service.close());

/**
 * The shapes of a million characters that took the Markdown reader time growing with the square
 * of their length (or overflowed its stack), each with the words (`text`) the page must have.
 */
const SHAPES: { name: string; body: string; text: (body: string) => string }[] = [
  // a quote whose lines go on lazily: one paragraph of a million characters
  { name: 'lazy lines', body: `> a\n${filled('b\n', MAX - 4)}`, text: () => `a\n${lines((MAX - 4) / 2, 'b')}` },
  { name: 'short lines', body: filled('a\n'), text: () => lines(MAX / 2, 'a') },
  { name: 'list items', body: filled('- a\n'), text: () => lines(MAX / 4, 'a') },
  {
    name: 'a table of one column',
    body: `| a |\n| - |\n${filled('x\n', MAX - 12)}`,
    text: () => `a\n${lines((MAX - 12) / 2, 'x')}`,
  },
  { name: 'wiki links', body: filled('[[p]] '), text: (body) => body.trimEnd() },
  // unclosed page links, which the links a page makes are read from
  { name: 'unclosed wiki links', body: filled('[[a|'), text: (body) => body },
  { name: 'unclosed images', body: filled('!['), text: (body) => body },
  { name: 'unclosed brackets', body: filled('['), text: (body) => body },
];

describe('8 a page body of 1,000,000 characters of any shape is stored, and its words read back', () => {
  for (const { name, body, text } of SHAPES) {
    it(
      `${name}: created, read back whole with its words (REST)`,
      async () => {
        expect(body.length).toBe(MAX);
        const created = await call(t.dev1, 'POST', '/spaces/ENG/pages', { title: `Large ${name}`, body });
        expect(created.status, created.text.slice(0, 300)).toBe(201);
        const expected = text(body);
        expect(created.body.text === expected).toBe(true);
        const read = await call(t.vic, 'GET', `/spaces/ENG/pages/${created.body.slug}`);
        expect(read.status).toBe(200);
        expect(read.body.body.text === body).toBe(true);
        expect(read.body.text === expected).toBe(true);
      },
      SLOW,
    );
  }

  it(
    'quotes nested a million deep: stored, read back, their words kept (MCP)',
    async () => {
      const body = `${'>'.repeat(MAX - 2)} a`;
      const made = await callTool(service, t.dev1, 'create_page', { space: 'ENG', title: 'Deep quotes', body });
      expect(made.isError, made.content[0]!.text.slice(0, 300)).toBe(false);
      const page = await callTool(service, t.vic, 'get_page', { space: 'ENG', page: 'deep-quotes' });
      expect(page.structuredContent.body.text === body).toBe(true);
      // below the deepest quote a reader follows, the markers stay as text: the words are all there
      expect(page.structuredContent.text.replace(/>/g, '').trim()).toBe('a');
    },
    SLOW,
  );

  it(
    'replaces a large body by another, and the words follow the new body',
    async () => {
      const first = filled('- item\n');
      const created = await call(t.dev1, 'POST', '/spaces/ENG/pages', { title: 'Replaced words', body: first });
      expect(created.status).toBe(201);
      const body = `# Heading\n\n${filled('word ', MAX - 11)}`;
      const changed = await call(t.dev1, 'PATCH', '/spaces/ENG/pages/replaced-words', { body, version: 1 });
      expect(changed.status).toBe(200);
      const read = await call(t.vic, 'GET', '/spaces/ENG/pages/replaced-words');
      expect(read.body.version).toBe(2);
      expect(read.body.text === `Heading\n${filled('word ', MAX - 11).trimEnd()}`).toBe(true);
    },
    SLOW,
  );
});
