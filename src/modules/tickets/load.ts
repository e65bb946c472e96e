import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { notFound } from '../../core/errors.ts';
import { loadWorkflow } from './project-config.ts';
import { assertCanSeeTicket, canSeeTicket, readableCommentSql, ticketVisibility } from './policy.ts';
import { presentComment, presentSummary, presentTicket, presentWorklog, type CommentRow, type WorklogRow } from './present.ts';
import { findTicketState, ticketRows, type TicketState } from './repo.ts';
import type { Link, Ticket, TicketDetail } from './schemas.ts';
import { availableTransitions, statusById } from './workflow-rules.ts';

/** A ticket the member may see, by key: 404 if none (or its project is hidden), 403 behind a security level. */
export async function loadVisibleTicket(ctx: Context, key: string, forUpdate = false): Promise<TicketState> {
  const ticket = await findTicketState(ctx.db, key, forUpdate);
  if (!ticket) throw notFound(`Ticket ${key.trim().toUpperCase()}`);
  await assertCanSeeTicket(ctx, ticket);
  return ticket;
}

export async function presentTicketById(ctx: Context, ticketId: string): Promise<Ticket> {
  const [row] = await ticketRows(ctx.db, [ticketId]);
  if (!row) throw notFound('Ticket');
  return presentTicket(row, ctx.publicUrl);
}

async function readableComments(ctx: Context, ticketId: string) {
  const visibility = await ticketVisibility(ctx);
  const rows = await sql<CommentRow>`
    select c.id, c.author_id, m.display_name as author_name, c.body_format, c.body_text, c.visibility, c.created_at, c.edited_at
    from comments c join tickets t on t.id = c.ticket_id left join members m on m.id = c.author_id
    where c.ticket_id = ${ticketId} and ${readableCommentSql(visibility)}
    order by c.created_at, c.id
  `.execute(ctx.db);
  return rows.rows.map(presentComment);
}

async function worklogs(ctx: Context, ticketId: string) {
  const rows = await sql<WorklogRow>`
    select w.id, w.author_id, m.display_name as author_name, w.started_at, w.time_spent_seconds, w.body_format, w.body_text, w.created_at, w.edited_at
    from worklogs w left join members m on m.id = w.author_id
    where w.ticket_id = ${ticketId}
    order by w.started_at desc, w.created_at desc
  `.execute(ctx.db);
  return rows.rows.map(presentWorklog);
}

interface LinkRow {
  relation: string;
  key: string;
  summary: string;
  status_name: string;
  status_category: 'todo' | 'in_progress' | 'done' | null;
  project_id: string;
  security_level_id: string | null;
}

/** Links read from this ticket; those to tickets the member cannot see are left out (spec 2.4). */
async function visibleLinks(ctx: Context, ticketId: string): Promise<Link[]> {
  const visibility = await ticketVisibility(ctx);
  const rows = await sql<LinkRow>`
    select x.relation, o.key, o.summary, s.name as status_name, s.category as status_category, o.project_id, o.security_level_id
    from (
      select l.outward as relation, l.target_id as other_id, l.created_at from ticket_links l where l.source_id = ${ticketId}
      union all
      select l.inward, l.source_id, l.created_at from ticket_links l where l.target_id = ${ticketId}
    ) x
    join tickets o on o.id = x.other_id
    join statuses s on s.id = o.status_id
    order by x.created_at, o.key
  `.execute(ctx.db);
  return rows.rows
    .filter((row) => canSeeTicket(visibility, row))
    .map((row) => ({ relation: row.relation, ticket: row.key, summary: row.summary, status: { name: row.status_name, category: row.status_category } }));
}

async function visibleSubtasks(ctx: Context, ticketId: string) {
  const visibility = await ticketVisibility(ctx);
  const children = await ctx.db
    .selectFrom('tickets')
    .select(['id', 'project_id', 'security_level_id'])
    .where('parent_id', '=', ticketId)
    .orderBy(sql`rank nulls last`)
    .orderBy('number')
    .execute();
  const rows = await ticketRows(ctx.db, children.filter((c) => canSeeTicket(visibility, c)).map((c) => c.id));
  return rows.map((row) => presentSummary(row, ctx.publicUrl));
}

export async function transitionsFor(ctx: Context, ticket: TicketState) {
  const workflow = await loadWorkflow(ctx.db, ticket.workflow_id);
  const available = await availableTransitions(ctx, ticket, workflow);
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
 * and the ticket's page; its signature stays stable.
 */
export async function getTicket(ctx: Context, key: string): Promise<TicketDetail> {
  const ticket = await loadVisibleTicket(ctx, key);
  const [base, comments, logged, links, subtasks, moves] = await Promise.all([
    presentTicketById(ctx, ticket.id),
    readableComments(ctx, ticket.id),
    worklogs(ctx, ticket.id),
    visibleLinks(ctx, ticket.id),
    visibleSubtasks(ctx, ticket.id),
    transitionsFor(ctx, ticket),
  ]);
  return { ...base, comments, worklogs: logged, links, subtasks, transitions: moves.transitions };
}

export async function listTransitions(ctx: Context, key: string) {
  const ticket = await loadVisibleTicket(ctx, key);
  const { status, transitions } = await transitionsFor(ctx, ticket);
  return { key: ticket.key, status: { name: status.name, category: status.category }, transitions };
}
