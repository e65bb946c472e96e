import type { Context } from '../../../../core/context.ts';
import { swimlaneSource, type BoardDetail, type SwimlaneSource } from '../../../../modules/boards/index.ts';
import { html, type Html } from '../../../html.ts';
import { chosenQuickFilter, narrowed, quickFilterLinks } from './quick-filters.ts';

type Card = BoardDetail['columns'][number]['tickets'][number];

/** How the board page draws its columns when the board has swimlanes: once per lane, each lane's cards alone. */
export type LaneView = (board: BoardDetail, columns: (lane: BoardDetail) => Html | Html[]) => Html;

const TITLES = { assignee: 'Assignee', parent: 'Parent', priority: 'Priority' } as const;
const NONE = { assignee: 'Unassigned', parent: 'No parent', priority: 'No priority' } as const;

function laneOf(source: SwimlaneSource, card: Card): string | null {
  if (source.by === 'assignee') return card.assignee?.name ?? null;
  if (source.by === 'priority') return card.priority ?? null;
  return source.parents.get(card.key) ?? null;
}

/** Lanes in reading order: priorities highest first, else by name; the lane of cards with none last. */
function ordered(source: SwimlaneSource, lanes: Set<string | null>): (string | null)[] {
  const named = [...lanes].filter((lane): lane is string => lane !== null);
  const rank = (lane: string) => {
    const at = source.priorities.indexOf(lane);
    return at < 0 ? Number.MAX_SAFE_INTEGER : at;
  };
  named.sort((a, b) => (source.by === 'priority' ? rank(a) - rank(b) : 0) || a.localeCompare(b));
  return lanes.has(null) ? [...named, null] : named;
}

/**
 * The board's swimlanes and quick filters (set in its settings): how the page draws its columns —
 * once per lane, each lane's cards alone, the cards narrowed by the quick filter the address asks
 * for — or null when the board has neither to apply, and the page draws its columns once as ever.
 */
export async function swimlaneView(ctx: Context, board: BoardDetail, query: unknown = {}): Promise<LaneView | null> {
  const source = await swimlaneSource(
    ctx,
    board.number,
    board.columns.flatMap((c) => c.tickets.map((t) => t.key)),
  );
  const quick = chosenQuickFilter(source.quickFilters, query);
  const links = quickFilterLinks(board.number, source.quickFilters, quick, query);
  const shownOf = (shown: BoardDetail) => (quick ? narrowed(shown, quick, ctx.actor.memberId) : shown);
  const cards = shownOf(board).columns.flatMap((c) => c.tickets);
  if (source.by === 'none' || cards.length === 0) {
    if (!links) return null;
    return (shown, columns) => html`${links}<div class="board" id="columns">${columns(shownOf(shown))}</div>`;
  }
  const by = source.by;
  const lanes = ordered(source, new Set(cards.map((card) => laneOf(source, card))));
  return (whole, columns) => {
    const shown = shownOf(whole);
    return html`${links}<div id="columns" class="swimlanes">${lanes.map((lane, i) => {
      const part = {
        ...shown,
        columns: shown.columns.map((c) => ({ ...c, tickets: c.tickets.filter((t) => laneOf(source, t) === lane) })),
      };
      const count = part.columns.reduce((n, c) => n + c.tickets.length, 0);
      return html`<section class="swimlane" aria-labelledby="lane-${String(i)}"><h2 id="lane-${String(i)}">${TITLES[by]}: ${lane ?? NONE[by]} <span class="muted">· ${String(count)}</span></h2>
<div class="board">${columns(part)}</div></section>`;
    })}</div>`;
  };
}
