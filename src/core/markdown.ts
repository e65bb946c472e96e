import MarkdownIt, { type MarkdownIt as Markdown, type StateBlock, type StateCore, type Token } from 'markdown-it';

/** `[ ]`, `[x]` or `[X]` opening a list item's first paragraph, then whitespace and its words (GFM task lists). */
const TASK = /^\[([ xX])\][ \t]+(?=\S)/;

/**
 * GFM's task lists as markdown-it has none: the marker leaves the item's words and stands before
 * them as a `task_checkbox` token, `meta.checked` saying whether it is ticked.
 */
function taskLists(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i += 1) {
    const inline = tokens[i]!;
    const opensItem = tokens[i - 1]!.type === 'paragraph_open' && tokens[i - 2]!.type === 'list_item_open';
    if (inline.type !== 'inline' || !opensItem) continue;
    const first = inline.children?.[0];
    const marker = first?.type === 'text' ? TASK.exec(first.content) : null;
    if (!first || !marker) continue;
    first.content = first.content.slice(marker[0].length);
    const box = new state.Token('task_checkbox', '', 0);
    box.meta = { checked: marker[1] !== ' ' };
    inline.children!.unshift(box);
  }
}

/** Blocks nested deeper than this (quotes in quotes, lists in lists) are read as the text they hold. */
const DEEPEST = 90;

/**
 * markdown-it stops reading a document at its nesting limit (100), dropping what is below; the
 * lines of a block nested this deep are kept instead, as one paragraph of their text.
 */
function tooDeep(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.level < DEEPEST) return false;
  if (silent) return true;
  state.push('paragraph_open', 'p', 1).map = [startLine, endLine];
  const inline = state.push('inline', '', 0);
  inline.content = state.getLines(startLine, endLine, state.blkIndent, false).trim();
  inline.map = [startLine, endLine];
  inline.children = [];
  state.push('paragraph_close', 'p', -1);
  state.line = endLine;
  return true;
}

/**
 * The service's Markdown (spec 2.2): CommonMark with GitHub's tables, task lists, strikethrough
 * and autolinks, read by markdown-it, whose time grows with the text's length whatever its shape
 * (a page body may hold a million characters). `html` reads raw HTML as HTML (what mentions and
 * a page's words need to tell it apart); `linkify` turns bare URLs and email addresses into links.
 */
export function markdownReader(options: { html: boolean; linkify: boolean }): Markdown {
  const reader = new MarkdownIt('default', { ...options, typographer: false });
  reader.block.ruler.before('table', 'too_deep', tooDeep);
  reader.core.ruler.after('inline', 'task_lists', taskLists);
  return reader;
}

/** One reader for every text read for its words: markdown-it holds no state of a document between parses. */
const reader = markdownReader({ html: true, linkify: false });

/** A Markdown text's tokens: blocks, each `inline` one holding its inline tokens as children. */
export function markdownTokens(markdown: string): Token[] {
  return reader.parse(markdown, {});
}

export type { Token };
