import { sql } from 'kysely';
import type { Context } from '../../../core/context.ts';
import { forbidden } from '../../../core/errors.ts';
import { loadVisibleTicket } from '../load.ts';
import type { TicketState } from '../repo.ts';
import type { VoteState } from './schemas.ts';

/**
 * Votes (spec 1: the browser's): whoever may see a ticket may vote for it, once; its reporter
 * does not — reporting it already says they want it (ADR 0070). A vote is
 * the member's own say, not a change of the ticket: no history, as with watching.
 */
function refusalFor(ctx: Context, ticket: Pick<TicketState, 'key' | 'reporter_id'>): string | null {
  return ticket.reporter_id === ctx.actor.memberId ? `You reported ${ticket.key}: a reporter does not vote for their own ticket` : null;
}

async function stateOf(ctx: Context, ticket: TicketState): Promise<VoteState> {
  const { rows } = await sql<{ id: string; name: string }>`
    select m.id, m.display_name as name from ticket_votes v join members m on m.id = v.member_id
    where v.ticket_id = ${ticket.id}::uuid order by v.created_at, m.display_name`.execute(ctx.db);
  return {
    key: ticket.key,
    votes: rows.length,
    voted: rows.some((row) => row.id === ctx.actor.memberId),
    voters: rows,
    refusal: refusalFor(ctx, ticket),
  };
}

/** The votes of a ticket the member can see: how many, whether theirs is among them, and whose. */
export async function readVotes(ctx: Context, key: string): Promise<VoteState> {
  return stateOf(ctx, await loadVisibleTicket(ctx, key));
}

/** Adds or takes back the member's vote; voting twice keeps one. */
export async function setVote(ctx: Context, key: string, voting: boolean): Promise<VoteState> {
  const ticket = await loadVisibleTicket(ctx, key);
  if (voting) {
    const refusal = refusalFor(ctx, ticket);
    if (refusal) throw forbidden(refusal);
    await ctx.db
      .insertInto('ticket_votes')
      .values({ ticket_id: ticket.id, member_id: ctx.actor.memberId })
      .onConflict((oc) => oc.doNothing())
      .execute();
  } else {
    await ctx.db.deleteFrom('ticket_votes').where('ticket_id', '=', ticket.id).where('member_id', '=', ctx.actor.memberId).execute();
  }
  return stateOf(ctx, ticket);
}
