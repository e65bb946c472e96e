import type { Choice } from '../../components/field.ts';
import { button, field } from '../../components/index.ts';
import { formValue, type FormState, type FormValues } from '../../forms.ts';
import { html, type Html } from '../../html.ts';

/** The page of the ticket search: the filters of GET /tickets (spec 4.2) live in its query string. */
export const SEARCH_PATH = '/tickets';

/** Every parameter of GET /tickets, in the order the query string and the form hold them. */
export const FILTERS = ['query', 'project', 'status', 'assignee', 'reporter', 'label', 'type', 'sort', 'limit', 'offset'] as const;
export type Filter = (typeof FILTERS)[number];

/** The filters as the member gave them: each one's text, trimmed, empty ones left out. */
export type Filters = Partial<Record<Filter, string>>;

const first = (value: unknown): string | undefined => {
  const text = Array.isArray(value) ? value.find((v) => typeof v === 'string') : value;
  return typeof text === 'string' ? text : undefined;
};

/** The filters of a query string (Fastify's parsed query, or a form's values), unknown names dropped. */
export function readFilters(query: unknown): Filters {
  const source = (query ?? {}) as Record<string, unknown>;
  const filters: Filters = {};
  for (const name of FILTERS) {
    const text = first(source[name])?.trim().slice(0, 500);
    if (text) filters[name] = text;
  }
  return filters;
}

/** The filters as a query string (no `?`), in one order, so the same search is the same address. */
export function filterQuery(filters: Filters, changes: Filters & { select?: string } = {}): string {
  const params = new URLSearchParams();
  const merged: Record<string, string | undefined> = { ...filters, ...changes };
  for (const name of [...FILTERS, 'select']) {
    const value = merged[name];
    if (value) params.set(name, value);
  }
  return params.toString();
}

/** The address of a search: /tickets with its filters. */
export function searchHref(filters: Filters, changes: Filters & { select?: string } = {}): string {
  const query = filterQuery(filters, changes);
  return query ? `${SEARCH_PATH}?${query}` : SEARCH_PATH;
}

/** What the form shows again: the filters as given, whatever the service made of them. */
export const filterValues = (filters: Filters): FormValues => ({ ...filters });

/** What the filter form offers to choose from: the member's projects and their ticket types. */
export interface FilterChoices {
  projects: readonly { key: string; name: string }[];
  types: readonly string[];
}

const STATUSES: readonly Choice[] = [
  { value: '', label: 'Any' },
  { value: 'open', label: 'Open (not done)' },
  { value: 'todo', label: 'To do' },
  { value: 'in_progress', label: 'In progress' },
  { value: 'done', label: 'Done' },
];

const SORTS: readonly Choice[] = [
  { value: '', label: 'Relevance with words, else recently updated' },
  { value: 'relevance', label: 'Relevance' },
  { value: 'updated', label: 'Recently updated' },
  { value: 'created', label: 'Recently created' },
  { value: 'priority', label: 'Priority' },
  { value: 'key', label: 'Key' },
];

const PAGE_SIZES: readonly Choice[] = ['20', '50', '100'].map((n) => ({ value: n, label: n }));

/** A select's choices, with the value given kept among them when it is none of them (a shared address, typed by hand). */
function keeping(choices: readonly Choice[], state: FormState, name: string): Choice[] {
  const given = formValue(state, name);
  return given === '' || choices.some((c) => c.value === given) ? [...choices] : [...choices, { value: given, label: given }];
}

/**
 * The filters as a GET form: sending it opens the address of the search, which anyone may share.
 * A refused filter (422) is said at its field, with what was given kept.
 */
export function filterForm(choices: FilterChoices, state: FormState): Html {
  const projects = keeping(
    [{ value: '', label: 'Any' }, ...choices.projects.map((p) => ({ value: p.key, label: `${p.key}: ${p.name}` }))],
    state,
    'project',
  );
  const types = keeping([{ value: '', label: 'Any' }, ...choices.types.map((t) => ({ value: t, label: t }))], state, 'type');
  const problem = state.problem ? html`<div class="flash error" role="alert"><p>${state.problem}</p></div>` : '';
  return html`<form method="get" action="${SEARCH_PATH}" id="ticket-filters" class="filters" role="search" aria-label="Ticket filters" novalidate>${problem}
${field({ name: 'query', label: 'Words', type: 'search', hint: 'Words or word beginnings, or a ticket key.', optional: true, state })}
<div class="filter-grid">
${field({ name: 'project', label: 'Project', type: 'select', choices: projects, state })}
${field({ name: 'status', label: 'Status', type: 'select', choices: keeping(STATUSES, state, 'status'), state })}
${field({ name: 'type', label: 'Type', type: 'select', choices: types, state })}
${field({ name: 'assignee', label: 'Assignee', hint: 'me, unassigned, or a name.', optional: true, state })}
${field({ name: 'reporter', label: 'Reporter', hint: 'me, or a name.', optional: true, state })}
${field({ name: 'label', label: 'Label', optional: true, state })}
${field({ name: 'sort', label: 'Sort by', type: 'select', choices: keeping(SORTS, state, 'sort'), state })}
${field({ name: 'limit', label: 'Per page', type: 'select', choices: keeping(PAGE_SIZES, state, 'limit'), state })}
</div>
<div class="form-actions">${button('Search')} <a href="${SEARCH_PATH}">Clear the filters</a></div></form>`;
}
