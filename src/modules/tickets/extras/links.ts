import { sql } from 'kysely';
import type { Context } from '../../../core/context.ts';
import { invalid, notFound } from '../../../core/errors.ts';
import { recordHistory } from '../../../core/history.ts';
import { linkRow, reverseRelation, type LinkRelation } from '../link-relations.ts';
import { getTicket, loadVisibleTicket } from '../load.ts';
import { announce } from '../notify.ts';
import { mayDo, requireTicketAction } from '../policy.ts';
import { insertLink, touchTicket, type TicketState } from '../repo.ts';
import type { LinkBody, TicketLinks } from './schemas.ts';

/**
 * Links between tickets, made and removed in the browser (spec 2.4 reads them; no API operation
 * writes them). A link changes the ticket as an edit does: ticket:edit on the ticket it is made
 * from (spec 5.6, as PATCH), and the other ticket one the member can see. Both tickets' histories
 * record it, both are touched and announced, so their open pages refresh (ADR 0074).
 */

/** The ticket's links as the member sees them (TicketDetail's rule), and whether they may change them. */
async function linksOf(ctx: Context, ticket: TicketState): Promise<TicketLinks> {
  const [detail, mayEdit] = await Promise.all([getTicket(ctx, ticket.key), mayDo(ctx, 'edit', ticket)]);
  return { key: ticket.key, may_edit: mayEdit, links: detail.links };
}

export async function listLinks(ctx: Context, key: string): Promise<TicketLinks> {
  return linksOf(ctx, await loadVisibleTicket(ctx, key));
}

interface Ends {
  ticket: TicketState;
  other: TicketState;
}

/**
 * The two ends of a link being changed: the ticket (ticket:edit), the other one the member can see
 * (404 or 403 as GET /tickets/{key} answers) and not the ticket itself; both rows locked in one
 * order, so two members linking the same pair wait for each other instead of deadlocking.
 */
async function loadEnds(ctx: Context, key: string, otherKey: string): Promise<Ends> {
  const ticket = await loadVisibleTicket(ctx, key);
  await requireTicketAction(ctx, 'edit', ticket);
  const other = await loadVisibleTicket(ctx, otherKey);
  if (other.id === ticket.id) throw invalid('/ticket', `${ticket.key} cannot be linked to itself`);
  await sql`select id from tickets where id in (${ticket.id}::uuid, ${other.id}::uuid) order by id for update`.execute(ctx.db);
  return { ticket, other };
}

/** SQL: the rows that read as `relation` from `ticket` to `other` (a `relates to` either way round). */
const sameLink = ({ ticket, other }: Ends, relation: LinkRelation) => sql<boolean>`
  ((l.source_id = ${ticket.id}::uuid and l.target_id = ${other.id}::uuid and l.outward = ${relation})
   or (l.source_id = ${other.id}::uuid and l.target_id = ${ticket.id}::uuid and l.inward = ${relation}))`;

/** Each end's history says the link as that ticket reads it; each end is touched and announced. */
async function recordOnBothEnds(ctx: Context, ends: Ends, relation: LinkRelation, made: boolean): Promise<void> {
  const sides = [
    { at: ends.ticket, reads: `${relation} ${ends.other.key}` },
    { at: ends.other, reads: `${reverseRelation(relation)} ${ends.ticket.key}` },
  ];
  for (const { at, reads } of sides) {
    await recordHistory(ctx, {
      entityType: 'ticket',
      entityId: at.id,
      kind: made ? 'linked' : 'unlinked',
      changes: [{ field: 'link', from: made ? null : reads, to: made ? reads : null }],
    });
    await touchTicket(ctx.db, at.id, { text: 'kept' });
    await announce(ctx, { ticket: { id: at.id, key: at.key }, kind: 'updated', payload: { changes: ['links'] } });
  }
}

/** Links the ticket to another, `relation` read from the ticket; the same link twice is refused (422). */
export async function linkTickets(ctx: Context, key: string, body: LinkBody): Promise<TicketLinks> {
  const ends = await loadEnds(ctx, key, body.ticket);
  const { rows } = await sql`select 1 from ticket_links l where ${sameLink(ends, body.relation)} limit 1`.execute(ctx.db);
  if (rows.length) throw invalid('/ticket', `${ends.ticket.key} already ${body.relation} ${ends.other.key}`);
  const row = linkRow(body.relation);
  const [source, target] = row.thisIsSource ? [ends.ticket, ends.other] : [ends.other, ends.ticket];
  await insertLink(ctx.db, source.id, target.id, row.outward);
  await recordOnBothEnds(ctx, ends, body.relation, true);
  return linksOf(ctx, ends.ticket);
}

/** Removes the link that reads as `relation` from the ticket to the other (404 when there is none). */
export async function unlinkTickets(ctx: Context, key: string, body: LinkBody): Promise<TicketLinks> {
  const ends = await loadEnds(ctx, key, body.ticket);
  const { rows } = await sql`delete from ticket_links l where ${sameLink(ends, body.relation)} returning l.id`.execute(ctx.db);
  if (!rows.length) throw notFound(`Link "${body.relation} ${ends.other.key}" of ${ends.ticket.key}`);
  await recordOnBothEnds(ctx, ends, body.relation, false);
  return linksOf(ctx, ends.ticket);
}
