import { html, type Html } from '../html.ts';

export interface Crumb {
  label: string;
  /** Where it leads; the last crumb, the page itself, has none. */
  href?: string;
}

/** Where the page sits below home: every crumb a link but the page itself (`aria-current`). */
export function breadcrumbs(crumbs: readonly Crumb[]): Html {
  if (crumbs.length === 0) return html``;
  const trail: readonly Crumb[] = [{ label: 'Home', href: '/' }, ...crumbs];
  const item = (crumb: Crumb, last: boolean) => {
    if (last) return html`<li aria-current="page">${crumb.label}</li>`;
    return crumb.href ? html`<li><a href="${crumb.href}">${crumb.label}</a></li>` : html`<li>${crumb.label}</li>`;
  };
  return html`<nav class="breadcrumbs" aria-label="Breadcrumb"><ol>${trail.map((crumb, i) => item(crumb, i === trail.length - 1))}</ol></nav>`;
}
