import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import type { RichText } from '../core/shapes.ts';
import { Html, html } from './html.ts';
import { ticketHref } from './links.ts';

/** GitHub-flavoured Markdown's extensions, built once: they hold no state of a document. */
const GFM = { extensions: [gfm()], htmlExtensions: [gfmHtml()] };

/**
 * Markdown (GitHub-flavoured) as HTML for the pages. micromark escapes raw HTML in the text and
 * drops links with dangerous protocols (`javascript:`…) unless told otherwise, and we never tell
 * it: whatever an agent or an import wrote stays inert. The API itself never returns HTML (spec 2.2).
 */
export function markdownToHtml(markdown: string, projectKeys: ReadonlySet<string> = new Set()): Html {
  const rendered = micromark(markdown, GFM);
  return new Html(projectKeys.size ? linkTicketKeys(rendered, projectKeys) : rendered);
}

const TAG = /(<[^>]*>)/;
const KEY = /\b([A-Z][A-Z0-9]*)-([1-9]\d{0,8})\b/g;
const NO_LINKS_INSIDE = /^<\/?(a|code|pre)[\s>]/i;

/**
 * Ticket keys of the reader's projects mentioned in the text become links to their pages. Only
 * text between tags is touched (micromark has escaped it already), never inside a link or code.
 */
function linkTicketKeys(rendered: string, projectKeys: ReadonlySet<string>): string {
  let shielded = 0;
  return rendered
    .split(TAG)
    .map((part) => {
      if (part.startsWith('<')) {
        if (NO_LINKS_INSIDE.test(part)) shielded += part.startsWith('</') ? -1 : 1;
        return part;
      }
      if (shielded > 0) return part;
      return part.replace(KEY, (whole, project: string) => (projectKeys.has(project) ? `<a href="${ticketHref(whole)}">${whole}</a>` : whole));
    })
    .join('');
}

/**
 * A stored text as the page shows it: Markdown rendered, imported wiki text through the Markdown
 * the service converts it to, anything else (plain, imported HTML or storage format) as text.
 */
export function renderRichText(text: RichText | null, projectKeys?: ReadonlySet<string>): Html {
  if (!text) return html`<p class="muted">None.</p>`;
  if (text.format === 'markdown') return html`<div class="rich">${markdownToHtml(text.text, projectKeys)}</div>`;
  if (text.format === 'imported_wiki' && text.markdown !== undefined) return html`<div class="rich">${markdownToHtml(text.markdown, projectKeys)}</div>`;
  return html`<pre class="text">${text.text}</pre>`;
}
