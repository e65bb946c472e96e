import { sql, type RawBuilder } from 'kysely';
import { normalizeKey } from '../../core/names.ts';
import type { Context } from '../../core/context.ts';
import { invalid } from '../../core/errors.ts';
import { presentTicketRow, rankTicket, type Ticket } from '../tickets/index.ts';
import { besideOf, lockRanks, rankInList, type Neighbour, type Place } from './rank.ts';

export interface PlacementInput {
  before?: string;
  after?: string;
}

/** The list's name for a refusal (`column "To Do" of board 1 in sprint S`), looked up only then. */
export type ListName = () => Promise<string>;

const notInList = async (neighbour: Neighbour, listName: ListName) =>
  invalid(neighbour.pointer, `${neighbour.key} is not in ${await listName()}`);

const named = (key: string, pointer: string): Neighbour => ({ key: normalizeKey(key), pointer });

/** Refuses a neighbour that is not another ranked ticket of the list. */
async function requireInList(
  ctx: Context,
  list: RawBuilder<boolean>,
  neighbour: Neighbour,
  cardId: string,
  listName: ListName,
): Promise<void> {
  const result = await sql<{ found: boolean }>`
    select true as found from tickets t where t.key = ${neighbour.key} and t.id <> ${cardId}::uuid and t.rank is not null and ${list}
  `.execute(ctx.db);
  if (!result.rows[0]) throw await notInList(neighbour, listName);
}

/**
 * `before`/`after` as a place in the list. The ticket the card goes beside is checked by the
 * statement that ranks it (rankCard); `after` given beside `before` places nothing, so it is
 * checked here. Either way a refusal comes before the move's transaction commits: it changes nothing.
 */
export async function resolvePlace(
  ctx: Context,
  list: RawBuilder<boolean>,
  input: PlacementInput,
  cardId: string,
  listName: ListName,
): Promise<Place> {
  if (input.before !== undefined) {
    if (input.after !== undefined) await requireInList(ctx, list, named(input.after, '/after'), cardId, listName);
    return { before: named(input.before, '/before') };
  }
  return input.after !== undefined ? { after: named(input.after, '/after') } : 'end';
}

/**
 * Gives the card (its row locked) its new rank in the list, recorded in its history; answers the
 * ticket as it now shows. A ticket named as its neighbour that is not in the list when the rank
 * lock is held, whether it never was or left while the move waited, is 422, and the move (its
 * transition too) changes nothing.
 */
export async function rankCard(
  ctx: Context,
  list: RawBuilder<boolean>,
  card: { id: string },
  place: Place,
  listName: ListName,
): Promise<Ticket> {
  await lockRanks(ctx.db);
  const rank = await rankInList(ctx.db, list, card.id, place);
  if (rank === null) {
    const beside = besideOf(place);
    throw beside ? await notInList(beside, listName) : new Error('a card placed at the end of its list always gets a rank');
  }
  return presentTicketRow(ctx, await rankTicket(ctx, card.id, rank));
}
