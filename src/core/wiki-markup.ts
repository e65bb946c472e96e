import j2m from 'jira2md';

// jira2md converts headings, lists, links, images, tables, bq., colour and panels well. Around it
// we keep code blocks verbatim, convert {quote}, rules and [~user] mentions, and write inline
// emphasis ourselves: its greedy patterns join `*a* and *b*` into one span and turn `x+y+z` into HTML.

const HOLD = '\u{F0000}';
const held = (index: number) => `${HOLD}${index}${HOLD}`;

function codeBlocks(text: string, keep: string[]): string {
  return text
    .replace(/\{code(?::([a-zA-Z0-9+#-]+))?(?:[:|][^}]*)?\}\n?([\s\S]*?)\n?\{code\}/g, (_, lang: string | undefined, body: string) => {
      keep.push('```' + (lang ?? '') + '\n' + body + '\n```');
      return held(keep.length - 1);
    })
    .replace(/\{noformat\}\n?([\s\S]*?)\n?\{noformat\}/g, (_, body: string) => {
      keep.push('```\n' + body + '\n```');
      return held(keep.length - 1);
    })
    .replace(/\{\{([^}]+)\}\}/g, (_, body: string) => {
      keep.push('`' + body + '`');
      return held(keep.length - 1);
    });
}

function quoteBlocks(text: string): string {
  return text.replace(/\{quote\}\n?([\s\S]*?)\n?\{quote\}/g, (_, body: string) =>
    body
      .split('\n')
      .map((line) => `> ${line}`.trimEnd())
      .join('\n'),
  );
}

const around = (mark: string) => new RegExp(`(^|[\\s(\\[])\\${mark}(\\S(?:[^${mark}\\n]*?\\S)?)\\${mark}(?=$|[\\s.,;:!?)\\]])`, 'gm');

function inlineEmphasis(text: string, keep: string[]): string {
  const wrap = (open: string, close = open) => (_: string, before: string, body: string) => {
    keep.push(open);
    const start = held(keep.length - 1);
    keep.push(close);
    return `${before}${start}${body}${held(keep.length - 1)}`;
  };
  return text
    .replace(around('*'), wrap('**'))
    .replace(around('_'), wrap('*'))
    .replace(around('-'), wrap('~~'))
    .replace(around('+'), (_, before: string, body: string) => `${before}${body}`)
    .replace(around('^'), (_, before: string, body: string) => `${before}${body}`)
    .replace(around('~'), (_, before: string, body: string) => `${before}${body}`);
}

/** Characters jira2md would misread once our own conversions are done. */
function shield(text: string, keep: string[]): string {
  return text.replace(/[+^~]/g, (ch) => {
    keep.push(ch);
    return held(keep.length - 1);
  });
}

function restore(text: string, keep: string[]): string {
  let out = text;
  // held values may themselves hold others (emphasis inside a quote), so restore until stable
  for (let round = 0; round < 4 && out.includes(HOLD); round += 1) {
    out = out.replace(new RegExp(`${HOLD}(\\d+)${HOLD}`, 'g'), (_, i: string) => keep[Number(i)] ?? '');
  }
  return out;
}

/** Wiki markup (text imported from another tracker) as the GFM an edit starts from (spec 2.2). */
export function wikiToMarkdown(wiki: string): string {
  const keep: string[] = [];
  let text = wiki.replace(/\r\n?/g, '\n');
  text = codeBlocks(text, keep);
  text = quoteBlocks(text);
  text = text.replace(/^-{4,}\s*$/gm, () => {
    keep.push('---');
    return held(keep.length - 1);
  });
  text = text.replace(/\[~([A-Za-z0-9._-]+)\]/g, '@$1');
  text = text.replace(/\\\\/g, '  \n');
  text = inlineEmphasis(text, keep);
  text = shield(text, keep);
  // plain bracketed words are not links: keep them out of jira2md's `[x]` → `<x>`
  text = text.replace(/\[([^|\]\n]+)\]/g, (whole, inner: string) => {
    if (/^(https?:|mailto:|www\.)/.test(inner)) return whole;
    keep.push('\\[', '\\]');
    return `${held(keep.length - 2)}${inner}${held(keep.length - 1)}`;
  });
  return restore(j2m.to_markdown(text), keep);
}
