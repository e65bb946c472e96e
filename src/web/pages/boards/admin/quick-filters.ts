import type { BoardDetail, SwimlaneSource } from '../../../../modules/boards/index.ts';
import { html, type Html } from '../../../html.ts';

type Card = BoardDetail['columns'][number]['tickets'][number];
type QuickFilter = SwimlaneSource['quickFilters'][number];

/** The quick filter the page's address asks for (`?quick=<name>`), if the board has it. */
export function chosenQuickFilter(filters: readonly QuickFilter[], query: unknown): QuickFilter | null {
  const asked = (query as { quick?: unknown } | null)?.quick;
  if (typeof asked !== 'string') return null;
  return filters.find((q) => q.name.toLowerCase() === asked.trim().toLowerCase()) ?? null;
}

/** Whether a card matches every criterion of the quick filter, `me` being the member looking. */
export function matchesQuickFilter(quick: QuickFilter, card: Card, memberId: string): boolean {
  if (quick.assignee === 'me' && card.assignee?.id !== memberId) return false;
  if (quick.assignee === 'unassigned' && card.assignee !== null) return false;
  if (quick.label && !card.labels.some((l) => l.toLowerCase() === quick.label!.toLowerCase())) return false;
  if (quick.type && card.type?.toLowerCase() !== quick.type.toLowerCase()) return false;
  return true;
}

/** The board's cards narrowed to those the quick filter matches. */
export function narrowed(board: BoardDetail, quick: QuickFilter, memberId: string): BoardDetail {
  return {
    ...board,
    columns: board.columns.map((c) => ({ ...c, tickets: c.tickets.filter((t) => matchesQuickFilter(quick, t, memberId)) })),
  };
}

/** The quick filters as links that keep the sprint shown: one is on at a time; "All cards" turns it off. */
export function quickFilterLinks(number: number, filters: readonly QuickFilter[], chosen: QuickFilter | null, query: unknown): Html | '' {
  if (filters.length === 0) return '';
  const sprint = (query as { sprint?: unknown } | null)?.sprint;
  const base = `/boards/${number}?${typeof sprint === 'string' && sprint !== '' ? `sprint=${encodeURIComponent(sprint)}&` : ''}`;
  const link = (label: string, href: string, current: boolean) =>
    html`<li><a href="${href}"${current ? html` aria-current="true"` : ''}>${label}</a></li>`;
  return html`<nav aria-label="Quick filters"><ul class="sprints" id="quick-filters">${filters.map((q) =>
    link(q.name, `${base}quick=${encodeURIComponent(q.name)}`, q === chosen),
  )}${link('All cards', base.slice(0, -1), chosen === null)}</ul></nav>`;
}
