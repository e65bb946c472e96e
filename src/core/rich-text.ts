import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { RichText } from './shapes.ts';
import { wikiToMarkdown } from './wiki-markup.ts';

/** A stored text (format + text) as the RichText the API returns (spec 2.2); never HTML. */
export function presentRichText(format: string | null, text: string | null): RichText | null {
  if (format === null || text === null) return null;
  if (format === 'imported_wiki') return { format, text, markdown: wikiToMarkdown(text) };
  return { format: format as RichText['format'], text };
}

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/**
 * The service's Markdown, GitHub-flavoured: micromark's syntax and mdast's tree extensions, built
 * once (they hold no state of a document, and building them took a quarter of each parse).
 * Mentions (core/mentions.ts) read the same dialect.
 */
export const GFM = { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] };

const parseMarkdown = (markdown: string): MdNode => fromMarkdown(markdown, GFM) as MdNode;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The words of a stored text whatever its format (a page's `text`, spec 2.7): no markup, one space between blocks. */
export function plainText(format: string | null, text: string | null): string {
  if (format === null || text === null) return '';
  if (format === 'plain') return text;
  if (format === 'html' || format === 'imported_storage') {
    return text
      .replace(/<(br|\/p|\/div|\/li|\/h\d|\/tr)\b[^>]*>/gi, '\n')
      .replace(/<[^>]*>/g, '')
      .replace(/&(#\d+|#x[0-9a-f]+|\w+);/gi, (whole, name: string) => {
        if (!name.startsWith('#')) return ENTITIES[name.toLowerCase()] ?? whole;
        const code = name.startsWith('#x') ? parseInt(name.slice(2), 16) : Number(name.slice(1));
        return code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) && code > 0 ? String.fromCodePoint(code) : whole;
      })
      .replace(/[ \t]+/g, ' ')
      .replace(/\n\s*\n+/g, '\n')
      .trim();
  }
  const markdown = format === 'imported_wiki' ? wikiToMarkdown(text) : text;
  const tree = parseMarkdown(markdown);
  const blocks: string[] = [];
  const words = (node: MdNode): string => (node.value ?? '') + (node.children ?? []).map(words).join('');
  const visit = (node: MdNode) => {
    if (['paragraph', 'heading', 'code', 'tableCell', 'html'].includes(node.type)) blocks.push(words(node));
    else node.children?.forEach(visit);
  };
  visit(tree);
  return blocks.filter((b) => b.trim() !== '').join('\n');
}
