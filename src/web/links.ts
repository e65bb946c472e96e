import type { Person } from '../core/shapes.ts';
import { html, type Html } from './html.ts';

/** Links to the pages that show a thing, so every key and person on a page leads somewhere. */

export function ticketHref(key: string): string {
  return `/browse/${encodeURIComponent(key)}`;
}

export function ticketLink(key: string): Html {
  return html`<a href="${ticketHref(key)}">${key}</a>`;
}

export function projectLink(key: string, name?: string): Html {
  return html`<a href="/projects/${encodeURIComponent(key)}">${name ?? key}</a>`;
}

export function boardHref(number: number): string {
  return `/boards/${number}`;
}

export function boardLink(number: number, name: string): Html {
  return html`<a href="${boardHref(number)}">${name}</a>`;
}

/** A person's page lists the tickets assigned to them that the reader can see. */
export function personLink(person: Person | null | undefined, nobody = '—'): Html | string {
  return person ? html`<a href="/people/${person.id}">${person.name}</a>` : nobody;
}

export function pageHref(space: string, slug: string): string {
  return `/knowledge/${encodeURIComponent(space)}/pages/${encodeURIComponent(slug)}`;
}

export function contactHref(id: string): string {
  return `/crm/contacts/${id}`;
}

/** A helpdesk project's portal forms, ordered and changed by their managers. */
export function requestTypesHref(project: string): string {
  return `/projects/${encodeURIComponent(project)}/request-types`;
}

export function requestTypeHref(project: string, key: string): string {
  return `${requestTypesHref(project)}/${encodeURIComponent(key)}`;
}
