import { markdownReader } from '../core/markdown.ts';
import type { RichText } from '../core/shapes.ts';
import { Html, html } from './html.ts';
import { ticketHref } from './links.ts';

/** Where a link or an image may lead: a relative address, or one of these protocols. */
const SAFE_PROTOCOL = /^(?:https?|ircs?|mailto|xmpp)$/i;

function safeDestination(url: string): boolean {
  const colon = url.indexOf(':');
  const pathStart = url.search(/[/?#]/);
  return colon < 0 || (pathStart >= 0 && pathStart < colon) || SAFE_PROTOCOL.test(url.slice(0, colon));
}

/**
 * The service's Markdown as HTML for the pages, built once (it holds no state of a document). Raw
 * HTML is not read as HTML, so it shows as the text it is; a link or image leading anywhere but a
 * relative address or http(s), mailto, irc(s) or xmpp (`javascript:`…) stays text: whatever an
 * agent or an import wrote stays inert. The API itself never returns HTML (spec 2.2).
 */
const renderer = markdownReader({ html: false, linkify: true });
renderer.validateLink = safeDestination;
renderer.renderer.rules.task_checkbox = (tokens, index) =>
  `<input type="checkbox" disabled=""${tokens[index]!.meta?.checked ? ' checked=""' : ''} /> `;

/** Markdown as HTML, ticket keys of the reader's projects as links to their pages. */
export function markdownToHtml(markdown: string, projectKeys: ReadonlySet<string> = new Set()): Html {
  const rendered = renderer.render(markdown);
  return new Html(projectKeys.size ? linkTicketKeys(rendered, projectKeys) : rendered);
}

const TAG = /(<[^>]*>)/;
const KEY = /\b([A-Z][A-Z0-9]*)-([1-9]\d{0,8})\b/g;
const NO_LINKS_INSIDE = /^<\/?(a|code|pre)[\s>]/i;

/**
 * Ticket keys of the reader's projects mentioned in the text become links to their pages. Only
 * text between tags is touched (the renderer has escaped it already), never inside a link or code.
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
      return part.replace(KEY, (whole, project: string) =>
        projectKeys.has(project) ? `<a href="${ticketHref(whole)}">${whole}</a>` : whole,
      );
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
  if (text.format === 'imported_wiki' && text.markdown !== undefined)
    return html`<div class="rich">${markdownToHtml(text.markdown, projectKeys)}</div>`;
  return html`<pre class="text">${text.text}</pre>`;
}
