import type { Paragraph, Root } from 'mdast';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { markdownTokens, type Token } from './markdown.ts';

/** `@username` where the character before, if any, is no word character, `@` or `.` (not an email address). */
const MENTION = /(^|[^\w@.])@([A-Za-z0-9._-]*[A-Za-z0-9_])/g;

/** GFM's tree transforms: the one that turns URLs and email addresses in text into links. */
const TRANSFORMS = gfmFromMarkdown().flatMap((extension) => extension.transforms ?? []);

/**
 * The text runs of an inline block that contain an `@`: text as the tree holds it (character
 * references and escapes decoded, a soft line break as `\n`), split by any other node (emphasis,
 * a hard break, code, raw HTML), never inside a link or an image.
 */
function textsWithAt(children: readonly Token[], texts: string[]): void {
  let text = '';
  let inLink = 0;
  const end = () => {
    if (text.includes('@')) texts.push(text);
    text = '';
  };
  for (const child of children) {
    if (child.type === 'link_open') {
      end();
      inLink += 1;
    } else if (child.type === 'link_close') inLink -= 1;
    else if (inLink > 0) continue;
    else if (child.type === 'text') text += child.content;
    else if (child.type === 'softbreak') text += '\n';
    else end();
  }
  end();
}

/**
 * Usernames mentioned as `@username` in Markdown (lowercased, unique): in the text of the
 * service's Markdown (core/markdown.ts), so never in code, links, raw HTML or email addresses.
 */
export function mentionedUsernames(markdown: string): string[] {
  // a mention needs an `@`, written or as a character reference (`&#64;`): without either, no parse
  if (!/[@&]/.test(markdown)) return [];
  const texts: string[] = [];
  for (const token of markdownTokens(markdown)) if (token.type === 'inline') textsWithAt(token.children ?? [], texts);
  const found = new Set<string>();
  for (const text of texts) {
    // the text as a tree of its own, for GFM to turn its URLs and email addresses into links
    const paragraph: Paragraph = { type: 'paragraph', children: [{ type: 'text', value: text }] };
    const root: Root = { type: 'root', children: [paragraph] };
    for (const transform of TRANSFORMS) transform(root);
    for (const node of paragraph.children) {
      if (node.type !== 'text') continue;
      for (const match of node.value.matchAll(MENTION)) found.add((match[2] ?? '').toLowerCase());
    }
  }
  return [...found];
}
