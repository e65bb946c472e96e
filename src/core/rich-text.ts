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

const MENTION = /(^|[^\w@.])@([A-Za-z0-9._-]*[A-Za-z0-9_])/g;

/** Usernames mentioned as `@username` in Markdown text, outside code (lowercased, unique). */
export function mentionedUsernames(markdown: string): string[] {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) as MdNode;
  const found = new Set<string>();
  const visit = (node: MdNode) => {
    if (node.type === 'code' || node.type === 'inlineCode' || node.type === 'link') return;
    if (node.type === 'text' && node.value) {
      for (const match of node.value.matchAll(MENTION)) found.add((match[2] ?? '').toLowerCase());
    }
    node.children?.forEach(visit);
  };
  visit(tree);
  return [...found];
}
