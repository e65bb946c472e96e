import { describe, expect, it } from 'vitest';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { mentionedUsernames } from '../../src/core/mentions.ts';

interface Node {
  type: string;
  value?: string;
  children?: Node[];
}

/** The service's Markdown (CommonMark, GFM tables, task lists, `~~strikethrough~~`, autolinks) as mdast reads it. */
const SERVICE_GFM = {
  extensions: [gfmStrikethrough({ singleTilde: false }), gfmTable(), gfmTaskListItem()],
  mdastExtensions: [gfmFromMarkdown()],
};

/**
 * The rule as ADR 0022 states it, read by another parser: `@username` in the text nodes of the
 * tree, outside code and links, after GFM's autolink-literal rule has made links of the text's
 * URLs and email addresses.
 */
function mentionsInTree(markdown: string): string[] {
  const found = new Set<string>();
  const visit = (node: Node) => {
    if (['code', 'inlineCode', 'link', 'linkReference'].includes(node.type)) return;
    if (node.type === 'text') {
      for (const match of node.value!.matchAll(/(^|[^\w@.])@([A-Za-z0-9._-]*[A-Za-z0-9_])/g)) found.add(match[2]!.toLowerCase());
    }
    node.children?.forEach(visit);
  };
  visit(fromMarkdown(markdown, SERVICE_GFM) as Node);
  return [...found].sort();
}

/** A small, seeded generator: the same documents at every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  '@ada',
  '@Lee.lead',
  '@x_y-',
  '@',
  'a',
  'word',
  ' ',
  ' ',
  '  ',
  '\n',
  '\n\n',
  '\t',
  '    ',
  '`',
  '``',
  '```\n',
  '~~~\n',
  '*',
  '**',
  '_',
  '~',
  '~~',
  '[',
  ']',
  '(',
  ')',
  '[x]',
  '](http://e.io)',
  '[r]',
  '[r]: http://e.io\n',
  '[^1]',
  '[^1]: ',
  '<',
  '>',
  '<b>',
  '</b>',
  '<http://e.io/@ada>',
  '&#64;',
  '&commat;',
  '&#x40;',
  '&amp;',
  '&',
  '\\',
  '\\@',
  'http://e.io/',
  'https://m.social/@ada',
  'www.e.io/@v',
  'me@example.com',
  'a.b@c.io',
  'x-@e.io',
  '+@e.io',
  'mailto:',
  'xmpp:',
  '.',
  ',',
  ':',
  '-',
  '# ',
  '> ',
  '- ',
  '1. ',
  '- [ ] ',
  '|',
  '| a |',
  '|---|',
  '---\n',
  '===\n',
  '!',
  '![',
  '"',
  "'",
  '_@',
  '@@b',
  'é',
  '@é',
];

describe('mentions: @username in a comment notifies that person, outside code, links and email addresses (spec 4.2)', () => {
  it.each([
    ['Hi @Ada and @lee.lead, not `@vic` nor me@example.com\n\n```\n@olga\n```', ['ada', 'lee.lead']],
    ['*a*@b', ['b']],
    ['a&#64;b and &#64;cy', ['cy']],
    ['see https://m.social/@ada and www.e.io/@vic, @bo', ['bo']],
    ['[@ada](http://e.io) [@bo][r] [@cy]\n\n[r]: http://e.io\n[@cy]: http://e.io', []],
    ['~~a\n@b~~ @c\\\n@d', ['b', 'c', 'd']],
    ['<b>@ada</b> <span title="@bo">x</span>', ['ada']],
    ['| @ada | `@bo` |\n|---|---|\n| @cy | x |', ['ada', 'cy']],
    ['[^1] @ada\n\n[^1]: @bo', ['ada']],
  ])('%j mentions %j', (markdown, usernames) => {
    expect(mentionedUsernames(markdown).sort()).toEqual(usernames);
    expect(mentionsInTree(markdown)).toEqual(usernames);
  });

  it('finds what the Markdown tree holds, in 5,000 generated documents', () => {
    const next = random(20261128);
    let withMentions = 0;
    for (let i = 0; i < 5000; i++) {
      const pieces = Array.from({ length: 1 + Math.floor(next() * 14) }, () => PIECES[Math.floor(next() * PIECES.length)]!);
      const markdown = pieces.join('');
      const expected = mentionsInTree(markdown);
      if (expected.length) withMentions++;
      expect(mentionedUsernames(markdown).sort(), markdown).toEqual(expected);
    }
    // the documents exercise both answers, not only the empty one
    expect(withMentions).toBeGreaterThan(1000);
  });

  it('reads each document on its own: a definition or footnote of one is not carried to the next', () => {
    expect(mentionedUsernames('[r]: http://e.io\n\n[@ada][r]')).toEqual([]);
    expect(mentionedUsernames('[@ada][r]')).toEqual(['ada']);
    expect(mentionedUsernames('[^n]: x\n\n[^n]@bo')).toEqual(['bo']);
    expect(mentionedUsernames('[^n]@bo')).toEqual(['bo']);
  });
});
