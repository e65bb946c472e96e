// Wiki markup (text imported from another tracker) to Markdown, by rules of our own whose time
// grows with the text's length: each pattern either stops at the next character that could start
// another match, or is anchored to a line's start, and paired blocks are found by a scan that stops
// at the first opening without a closing. (jira2md, used before, took time growing with the square
// of a text's length on unclosed brackets or braces, and exponentially on a `||a||a…` line.)

const HOLD = '\u{F0000}';
const held = (index: number) => `${HOLD}${index}${HOLD}`;

/**
 * Replaces each block from an opening (matched by `open`, global) to the next `close` after it;
 * an opening with no `close` after it ends the scan, as no later one can have one either.
 */
type PairReplacer = (opening: RegExpExecArray, body: string) => string;

function pairs(text: string, open: RegExp, close: string, replace: PairReplacer): string {
  let out = '';
  let from = 0;
  open.lastIndex = 0;
  for (let opening = open.exec(text); opening; opening = open.exec(text)) {
    const bodyStart = opening.index + opening[0].length;
    const end = text.indexOf(close, bodyStart);
    if (end < 0) break;
    out += text.slice(from, opening.index) + replace(opening, text.slice(bodyStart, end));
    from = end + close.length;
    open.lastIndex = from;
  }
  return out + text.slice(from);
}

/** A block's body without the line break just inside each end (`{code}\nbody\n{code}`). */
const inner = (body: string) => body.replace(/^\n/, '').replace(/\n$/, '');

function codeBlocks(text: string, keep: string[]): string {
  const hold = (markdown: string) => {
    keep.push(markdown);
    return held(keep.length - 1);
  };
  let out = pairs(text, /\{code(?::([a-zA-Z0-9+#-]+))?(?:[:|][^{}\n]*)?\}/g, '{code}', (opening, body) =>
    hold(`\`\`\`${opening[1] ?? ''}\n${inner(body)}\n\`\`\``),
  );
  out = pairs(out, /\{noformat\}/g, '{noformat}', (_, body) => hold(`\`\`\`\n${inner(body)}\n\`\`\``));
  return out.replace(/\{\{([^{}]+)\}\}/g, (_, body: string) => hold(`\`${body}\``));
}

function quoteBlocks(text: string): string {
  return pairs(text, /\{quote\}/g, '{quote}', (_, body) =>
    inner(body)
      .split('\n')
      .map((line) => `> ${line}`.trimEnd())
      .join('\n'),
  );
}

/** A panel becomes a one-cell table under its title, as it did when imported before. */
function panels(text: string): string {
  const table: PairReplacer = (opening, body) => `\n| ${opening[1]} |\n| --- |\n| ${inner(body)} |`;
  return pairs(text, /\{panel:title=([^{}\n]*)\}/g, '{panel}', table);
}

const around = (mark: string) => new RegExp(`(^|[\\s(\\[])\\${mark}(\\S(?:[^${mark}\\n]*?\\S)?)\\${mark}(?=$|[\\s.,;:!?)\\]])`, 'gm');

function inlineEmphasis(text: string, keep: string[]): string {
  const wrap =
    (open: string, close = open) =>
    (_: string, before: string, body: string) => {
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

/** Characters the rules below would misread once the conversions above are done. */
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

/** Lists, headings, what is left of bold and italics, links, images, quotes, colours and tables. */
function lineRules(text: string): string {
  return panels(text)
    .replace(/^[ \t]*(\*+)[ \t]+/gm, (_, stars: string) => `${'  '.repeat(stars.length - 1)}* `)
    .replace(/^[ \t]*(#+)[ \t]+/gm, (_, hashes: string) => `${'   '.repeat(hashes.length - 1)}1. `)
    .replace(/^h([0-6])\.(.*)$/gm, (_, level: string, content: string) => '#'.repeat(Number(level)) + content)
    .replace(/\*(\S.*)\*/g, '**$1**')
    .replace(/_(\S.*)_/g, '*$1*')
    .replace(/\[([^[\]|]+)\]/g, '<$1>')
    .replace(/!(.+)!/g, '![]($1)')
    .replace(/\[([^[\]|\n]+)\|([^[\]\n]+)\]/g, '[$1]($2)')
    .replace(/^bq\.[ \t]+/gm, '> ')
    .replace(/\{color(?::[^{}\n]*)?\}/g, '')
    .replace(/^[ \t]*(\|\|.*\|\|)[ \t]*$/gm, (_, headers: string) => {
      const cells = headers.replace(/\|\|/g, '|');
      return `\n${cells}\n${cells.replace(/\|[^|]+/g, '| --- ')}`;
    })
    .replace(/^[ \t]*\|/gm, '|');
}

/** Wiki markup (text imported from another tracker) as the GFM an edit starts from (spec 2.2). */
export function wikiToMarkdown(wiki: string): string {
  const keep: string[] = [];
  let text = wiki.replace(/\r\n?/g, '\n');
  text = codeBlocks(text, keep);
  text = quoteBlocks(text);
  text = text.replace(/^-{4,}[ \t]*$/gm, () => {
    keep.push('---');
    return held(keep.length - 1);
  });
  text = text.replace(/\[~([A-Za-z0-9._-]+)\]/g, '@$1');
  text = text.replace(/\\\\/g, '  \n');
  text = inlineEmphasis(text, keep);
  text = shield(text, keep);
  // plain bracketed words are not links: keep them out of `[x]` → `<x>`
  text = text.replace(/\[([^[\]|\n]+)\]/g, (whole, inner: string) => {
    if (/^(https?:|mailto:|www\.)/.test(inner)) return whole;
    keep.push('\\[', '\\]');
    return `${held(keep.length - 2)}${inner}${held(keep.length - 1)}`;
  });
  return restore(lineRules(text), keep);
}
