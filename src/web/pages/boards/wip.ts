import type { BoardDetail } from '../../../modules/boards/index.ts';
import { html, type Html } from '../../html.ts';

type Column = BoardDetail['columns'][number];

export type WipState = 'over' | 'under' | 'within' | 'none';

/** Where a column stands against its work-in-progress limits (spec 2.5: shown, never enforced). */
export function wipState(column: Column): WipState {
  const count = column.tickets.length;
  if (column.min === null && column.max === null) return 'none';
  if (column.max !== null && count > column.max) return 'over';
  if (column.min !== null && count < column.min) return 'under';
  return 'within';
}

const cards = (n: number) => `${n} ${n === 1 ? 'card' : 'cards'}`;

/**
 * A column's count and limits in words. A column out of its limits says so in text with a sign
 * beside it, and its frame changes too: the colour is never the only mark.
 */
export function wipLine(column: Column): Html {
  const count = column.tickets.length;
  const limits = [column.min === null ? null : `at least ${column.min}`, column.max === null ? null : `at most ${column.max}`]
    .filter((part) => part !== null)
    .join(', ');
  const state = wipState(column);
  if (state === 'over')
    return html`<p class="wip over"><span aria-hidden="true">▲</span> <strong>Over its limit:</strong> ${cards(count)}, ${limits}</p>`;
  if (state === 'under')
    return html`<p class="wip under"><span aria-hidden="true">▼</span> <strong>Under its minimum:</strong> ${cards(count)}, ${limits}</p>`;
  return html`<p class="wip">${cards(count)}${limits ? ` · ${limits}` : ''}</p>`;
}
