import { describe, expect, it } from 'vitest';
import { wikiToMarkdown } from '../../src/core/wiki-markup.ts';

describe('imported wiki text: converted to the Markdown an edit starts from', () => {
  it.each([
    ['h2. Steps', '## Steps'],
    ['*bold* and *more bold*', '**bold** and **more bold**'],
    ['_italic_ text', '*italic* text'],
    ['-gone- text', '~~gone~~ text'],
    ['use {{npm ci}} here', 'use `npm ci` here'],
    ['# one\n# two', '1. one\n1. two'],
    ['* a\n** b', '* a\n  * b'],
    ['[Docs|https://example.com/docs]', '[Docs](https://example.com/docs)'],
    ['bq. quoted', '> quoted'],
    ['{quote}\nfirst\nsecond\n{quote}', '> first\n> second'],
    ['{code:java}\nint x = *y* + 1;\n{code}', '```java\nint x = *y* + 1;\n```'],
    ['{noformat}\nraw *x*\n{noformat}', '```\nraw *x*\n```'],
    ['ask [~jdoe] please', 'ask @jdoe please'],
    ['----', '---'],
    ['{color:red}red{color} text', 'red text'],
    ['a-b-c and x+y+z', 'a-b-c and x+y+z'],
    ['+inserted+ word', 'inserted word'],
    ['see [the list]', 'see \\[the list\\]'],
  ])('%j becomes %j', (wiki, markdown) => {
    expect(wikiToMarkdown(wiki)).toBe(markdown);
  });

  it('turns a table into a GFM table', () => {
    expect(wikiToMarkdown('||A||B||\n|1|2|')).toContain('|A|B|\n| --- | --- |\n|1|2|');
  });
});
