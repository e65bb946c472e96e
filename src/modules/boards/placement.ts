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

const notInList = (pointer: string, key: string, listName: string) => invalid(pointer, `${key} is not in ${listName}`);

async function neighbour(ctx: Context, list: RawBuilder<boolean>, key: string, cardId: string, pointer: string, listName: string): Promise<Neighbour> {
  const named = normalizeKey(key);
  const result = await sql<{ id: string; rank: string | null }>`
    select t.id, t.rank from tickets t where t.key = ${named} and ${list}
  `.execute(ctx.db);
  const row = result.rows[0];
  if (!row || row.id === cardId || row.rank === null) throw notInList(pointer, named, listName);
  return { id: row.id, key: named, pointer };
}

/**
 * `before`/`after` as a place in the list: each must name another ticket of it (422 otherwise).
 * Checked here, before the move changes anything, and again when the card is ranked.
 */
export async function resolvePlace(ctx: Context, list: RawBuilder<boolean>, input: PlacementInput, cardId: string, listName: string): Promise<Place> {
  const after = input.after !== undefined ? await neighbour(ctx, list, input.after, cardId, '/after', listName) : undefined;
  if (input.before !== undefined) return { before: await neighbour(ctx, list, input.before, cardId, '/before', listName) };
  if (after !== undefined) return { after };
  return 'end';
}

/**
 * Gives the card (its row locked) its new rank in the list, recorded in its history; answers the
 * ticket as it now shows. A ticket named as its neighbour that left the list while the move waited
 * for the rank lock is 422, as it would have been had it left before: the move changes nothing.
 */
export async function rankCard(ctx: Context, list: RawBuilder<boolean>, card: { id: string }, place: Place, listName: string): Promise<Ticket> {
  await lockRanks(ctx.db);
  const rank = await rankInList(ctx.db, list, card.id, place);
  if (rank === null) {
    const beside = besideOf(place);
    throw beside ? notInList(beside.pointer, beside.key, listName) : new Error('a card placed at the end of its list always gets a rank');
  }
  return presentTicketRow(ctx, await rankTicket(ctx, card.id, rank));
}
