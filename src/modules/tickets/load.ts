import type { Context } from '../../core/context.ts';
import { notFound } from '../../core/errors.ts';
import { findTicketDetail, nameTicketDetail } from './detail.ts';
import { withDeals } from './extensions.ts';
import { cachedWorkflow } from './project-config.ts';
import { normalizeKey } from '../../core/names.ts';
import { refuseUnseen, ticketScope } from './visibility.ts';
import { presentComment, presentTicket, presentWorklog } from './present.ts';
import { findTicketState, ticketRows, type TicketRow, type TicketState } from './repo.ts';
import type { Link, Ticket, TicketDetail } from './schemas.ts';
import { availableTransitions, statusById } from './workflow-rules.ts';

/**
 * A ticket the member may see, by key: 404 if none (or its project is hidden), 403 behind a
 * security level. Its statement carries the request's token check when there is one to make.
 */
export async function loadVisibleTicket(ctx: Context, key: string, forUpdate = false): Promise<TicketState> {
  const ticket = await findTicketState(ctx.db, key, await ticketScope(ctx), forUpdate, ctx.tokenCheck);
  refuseUnseen(ticket?.key ?? normalizeKey(key), ticket);
  return ticket!;
}

export async function presentTicketById(ctx: Context, ticketId: string): Promise<Ticket> {
  const [row] = await ticketRows(ctx.db, [ticketId]);
  if (!row) throw notFound('Ticket');
  return presentTicketRow(ctx, row);
}

/** A Ticket answer from a row already read (or returned by the write that changed it). */
export async function presentTicketRow(ctx: Context, row: TicketRow): Promise<Ticket> {
  const [ticket] = await withDeals(ctx, [{ id: row.id, projectKind: row.project_kind, ticket: presentTicket(row, ctx.publicUrl) }]);
  return ticket!;
}

/** The transitions the member can take now, with the workflow from the structure cache. */
export async function transitionsFor(ctx: Context, ticket: TicketState, knownRoleIds?: ReadonlySet<string>) {
  const workflow = await cachedWorkflow(ctx, ticket.workflow_id);
  const available = await availableTransitions(ctx, ticket, workflow, knownRoleIds);
  return {
    workflow,
    status: statusById(workflow, ticket.status_id),
    transitions: available.map((t) => {
      const to = statusById(workflow, t.to_status_id);
      return { id: t.id, name: t.name, to_status: { name: to.name, category: to.category } };
    }),
  };
}

/**
 * One ticket as a member sees it: comments they may read (oldest first), worklogs (newest first),
 * visible links and subtasks, and the transitions they can take now. Used by GET /tickets/{key}
 * and the ticket's page; its signature stays stable. One round trip warm (findTicketDetail, which
 * carries the token's check on the REST and MCP doors); the workflow and the structure's names
 * (nameTicketDetail) are read only when not cached.
 */
export async function getTicket(ctx: Context, key: string): Promise<TicketDetail> {
  const read = await findTicketDetail(ctx.db, key, await ticketScope(ctx), ctx.tokenCheck);
  // the same answers as loadVisibleTicket: 404 when missing or in a hidden project, 403 behind a level
  refuseUnseen(read?.key ?? normalizeKey(key), read);
  if (!read) throw new Error('refuseUnseen let a missing ticket through');
  const row = await nameTicketDetail(ctx, read);
  const moves = await transitionsFor(ctx, row, row.role_ids ? new Set(row.role_ids) : undefined);
  const links: Link[] = (row.links ?? []).map((link) => ({
    relation: link.relation,
    ticket: link.key,
    summary: link.summary,
    status: { name: link.status_name, category: link.status_category },
  }));
  const [ticket] = await withDeals(ctx, [{ id: row.id, projectKind: row.project_kind, ticket: presentTicket(row, ctx.publicUrl) }]);
  return {
    ...ticket!,
    comments: (row.comments ?? []).map(presentComment),
    worklogs: (row.worklogs ?? []).map(presentWorklog),
    links,
    subtasks: row.subtasks ?? [],
    transitions: moves.transitions,
  };
}

export async function listTransitions(ctx: Context, key: string) {
  const ticket = await loadVisibleTicket(ctx, key);
  const { status, transitions } = await transitionsFor(ctx, ticket);
  return { key: ticket.key, status: { name: status.name, category: status.category }, transitions };
}
