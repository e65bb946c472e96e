import { markdownTokens, type Token } from './markdown.ts';
import type { RichText } from './shapes.ts';
import { wikiToMarkdown } from './wiki-markup.ts';

/** A stored text (format + text) as the RichText the API returns (spec 2.2); never HTML. */
export function presentRichText(format: string | null, text: string | null): RichText | null {
  if (format === null || text === null) return null;
  if (format === 'imported_wiki') return { format, text, markdown: wikiToMarkdown(text) };
  return { format: format as RichText['format'], text };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The words of a stored text whatever its format (a page's `text`, spec 2.7): no markup, a line between blocks. */
export function plainText(format: string | null, text: string | null): string {
  if (format === null || text === null) return '';
  if (format === 'plain') return text;
  if (format === 'html' || format === 'imported_storage') {
    return text
      .replace(/<(br|\/p|\/div|\/li|\/h\d|\/tr)\b[^<>]*>/gi, '\n')
      .replace(/<[^<>]*>/g, '')
      .replace(/&(#\d+|#x[0-9a-f]+|\w+);/gi, (whole, name: string) => {
        if (!name.startsWith('#')) return ENTITIES[name.toLowerCase()] ?? whole;
        const code = name.startsWith('#x') ? parseInt(name.slice(2), 16) : Number(name.slice(1));
        return code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) && code > 0 ? String.fromCodePoint(code) : whole;
      })
      .replace(/[ \t]+/g, ' ')
      .replace(/\n\s*\n+/g, '\n')
      .trim();
  }
  return markdownWords(format === 'imported_wiki' ? wikiToMarkdown(text) : text);
}

/** The words of an inline run: text and code as written, a line break as one, an image by its description. */
function inlineWords(children: readonly Token[]): string {
  let words = '';
  for (const child of children) {
    if (child.type === 'text' || child.type === 'code_inline' || child.type === 'html_inline') words += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') words += '\n';
    else if (child.type === 'image') words += inlineWords(child.children ?? []);
  }
  return words;
}

const VERBATIM = new Set(['fence', 'code_block', 'html_block']);

/** Markdown's words: each paragraph, heading, table cell, code block and raw HTML block on a line of its own. */
function markdownWords(markdown: string): string {
  const blocks: string[] = [];
  for (const token of markdownTokens(markdown)) {
    if (token.type === 'inline') blocks.push(inlineWords(token.children ?? []));
    else if (VERBATIM.has(token.type)) blocks.push(token.content.replace(/\n$/, ''));
  }
  return blocks.filter((b) => b.trim() !== '').join('\n');
}
