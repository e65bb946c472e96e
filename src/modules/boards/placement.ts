import { sql, type RawBuilder } from 'kysely';
import { normalizeKey } from '../../core/names.ts';
import type { Context } from '../../core/context.ts';
import { invalid } from '../../core/errors.ts';
import { presentTicketRow, rankTicket, type Ticket } from '../tickets/index.ts';
import { lockRanks, rankInList, type Place } from './rank.ts';

export interface PlacementInput {
  before?: string;
  after?: string;
}

async function neighbour(ctx: Context, list: RawBuilder<boolean>, key: string, cardId: string, pointer: string, listName: string): Promise<string> {
  const result = await sql<{ id: string; rank: string | null }>`
    select t.id, t.rank from tickets t where t.key = ${normalizeKey(key)} and ${list}
  `.execute(ctx.db);
  const row = result.rows[0];
  if (!row || row.id === cardId || row.rank === null) throw invalid(pointer, `${normalizeKey(key)} is not in ${listName}`);
  return row.rank;
}

/** `before`/`after` as a place in the list: each must name another ticket of it (422 otherwise). */
export async function resolvePlace(ctx: Context, list: RawBuilder<boolean>, input: PlacementInput, cardId: string, listName: string): Promise<Place> {
  const after = input.after !== undefined ? await neighbour(ctx, list, input.after, cardId, '/after', listName) : undefined;
  if (input.before !== undefined) return { before: await neighbour(ctx, list, input.before, cardId, '/before', listName) };
  if (after !== undefined) return { after };
  return 'end';
}

/** Gives the card (its row locked) its new rank in the list, recorded in its history; answers the ticket as it now shows. */
export async function rankCard(ctx: Context, list: RawBuilder<boolean>, card: { id: string }, place: Place): Promise<Ticket> {
  await lockRanks(ctx.db);
  const rank = await rankInList(ctx.db, list, card.id, place);
  return presentTicketRow(ctx, await rankTicket(ctx, card.id, rank));
}
