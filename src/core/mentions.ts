import { parse, postprocess, preprocess } from 'micromark';
import { decodeString } from 'micromark-util-decode-string';
import type { Paragraph, Root } from 'mdast';
import { GFM } from './rich-text.ts';

/** `@username` where the character before, if any, is no word character, `@` or `.` (not an email address). */
const MENTION = /(^|[^\w@.])@([A-Za-z0-9._-]*[A-Za-z0-9_])/g;

/**
 * Tokens that open a node of the tree: text on either side of one is two text nodes. Any other
 * token (a marker, a prefix, a wrapper) leaves the text around it one node, as mdast does.
 */
const NODE = new Set([
  'atxHeading', 'autolink', 'blockQuote', 'codeFenced', 'codeIndented', 'codeText', 'definition', 'emphasis',
  'hardBreakEscape', 'hardBreakTrailing', 'htmlFlow', 'htmlText', 'image', 'link', 'listItemPrefix', 'listOrdered',
  'listUnordered', 'paragraph', 'setextHeading', 'strong', 'thematicBreak',
  'strikethrough', 'table', 'tableRow', 'tableData', 'tableHeader', 'gfmFootnoteDefinition', 'gfmFootnoteCall',
  'literalAutolink',
]);

/** Tokens whose words are not text that mentions: code, links of every kind, raw HTML, definitions, labels. */
const NOT_TEXT = new Set([
  'autolink', 'codeFenced', 'codeIndented', 'codeText', 'definition', 'htmlFlow', 'htmlText', 'image', 'link',
  'literalAutolink', 'gfmFootnoteCall', 'gfmFootnoteDefinitionLabel',
]);

/** GFM's tree transforms: the one that turns URLs and email addresses in text into links. */
const TRANSFORMS = GFM.mdastExtensions.flat().flatMap((extension) => extension.transforms ?? []);

/**
 * One parser for every document: building it is most of a short text's parse. Parsing is
 * synchronous, so no two documents share it at once; what a document leaves on it (definitions,
 * lazy lines, footnote labels — any property added while parsing) is cleared before the next.
 */
const parser = parse({ extensions: GFM.extensions });
const parserKeys = new Set(Object.keys(parser));

function events(markdown: string): ReturnType<typeof postprocess> {
  const state = parser as unknown as Record<string, unknown>;
  for (const key of Object.keys(state)) if (!parserKeys.has(key)) delete state[key];
  parser.defined = [];
  parser.lazy = {};
  return postprocess(parser.document().write(preprocess()(markdown, undefined, true)));
}

/** The text nodes of the document, as mdast would hold them (decoded, a line ending as `\n`), that contain an `@`. */
function textsWithAt(markdown: string): string[] {
  const texts: string[] = [];
  let text = '';
  let outside = 0;
  const end = () => {
    if (text.includes('@')) texts.push(text);
    text = '';
  };
  for (const [kind, token, context] of events(markdown)) {
    const type = token.type;
    if (outside > 0) {
      if (NOT_TEXT.has(type)) outside += kind === 'enter' ? 1 : -1;
      continue;
    }
    if (NOT_TEXT.has(type)) {
      end();
      outside = 1;
    } else if (NODE.has(type)) end();
    else if (kind === 'enter') {
      if (type === 'data' || type === 'characterEscapeValue') text += context.sliceSerialize(token);
      else if (type === 'characterReference') text += decodeString(context.sliceSerialize(token));
      else if (type === 'lineEnding') text += '\n';
    }
  }
  end();
  return texts;
}

/**
 * Usernames mentioned as `@username` in Markdown (lowercased, unique): in the text nodes of its
 * tree (mdast + GFM, ADR 0022), so never in code, links, raw HTML or email addresses.
 * The text nodes are read from micromark's events without building the tree: building it cost a
 * comment with a mention a fifth of the server's time (ADR 0022), as micromark combined its
 * constructs and mdast configured its compiler again for every document.
 */
export function mentionedUsernames(markdown: string): string[] {
  // a mention needs an `@`, written or as a character reference (`&#64;`): without either, no parse
  if (!/[@&]/.test(markdown)) return [];
  const found = new Set<string>();
  for (const text of textsWithAt(markdown)) {
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
