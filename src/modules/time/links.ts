import type { Context } from '../../core/context.ts';
import { ApiError, invalid } from '../../core/errors.ts';
import { refuseBlank, resolveName } from '../../core/names.ts';
import { resolveVisibleProject } from '../projects/index.ts';
import { loadVisibleTicket, requireTicketAction } from '../tickets/index.ts';

export interface Linked {
  id: string;
  name: string;
}

export interface TicketLink {
  id: string;
  key: string;
  projectId: string;
  projectKey: string;
}

/**
 * A link of an activity's body: `null` or `""` (spaces alone too) clears it (spec 4.6), anything
 * else is resolved as the filters resolve it.
 */
const clears = (given: string | null): given is null => given === null || given.trim() === '';

/** `project` of a filter: a project the member can see, by key; blank is 422. */
export interface ProjectLink {
  id: string;
  key: string;
}

export async function projectNamed(ctx: Context, given: string, pointer = '/project'): Promise<ProjectLink> {
  const project = await resolveVisibleProject(ctx, given, pointer);
  return { id: project.id, key: project.key };
}

/** `project` of a body: as a filter names it; `null` or `""` clears. */
export async function resolveProjectLink(ctx: Context, given: string | null): Promise<ProjectLink | null> {
  return clears(given) ? null : projectNamed(ctx, given);
}

/** `customer` of a filter: an organization by name or id (case-insensitive); blank, or a name matching none, is 422. */
export async function customerNamed(ctx: Context, given: string, pointer = '/customer'): Promise<Linked> {
  const organizations = await ctx.db.selectFrom('organizations').select(['id', 'name']).orderBy('name').execute();
  return resolveName(organizations, given, { pointer, what: 'customer', names: (o) => [o.name, o.id] });
}

/** `customer` of a body: as a filter names it; `null` or `""` clears. */
export async function resolveCustomer(ctx: Context, given: string | null): Promise<Linked | null> {
  return clears(given) ? null : customerNamed(ctx, given);
}

/**
 * `ticket` of a filter: a ticket the member can see, by key, with its project; one they cannot
 * see is named like one that does not exist (422). To log time on it (`forWork`) the member must
 * be allowed to log work there (ticket:comment and time:log, spec 5.6): the activity becomes its worklog.
 */
export async function ticketNamed(ctx: Context, given: string, forWork = false): Promise<TicketLink> {
  refuseBlank(given, '/ticket');
  let ticket: Awaited<ReturnType<typeof loadVisibleTicket>>;
  try {
    ticket = await loadVisibleTicket(ctx, given);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403))
      throw invalid('/ticket', `no ticket "${given.trim()}" that you can see`);
    throw error;
  }
  if (forWork) await requireTicketAction(ctx, 'log_work', ticket);
  return { id: ticket.id, key: ticket.key, projectId: ticket.project_id, projectKey: ticket.project_key };
}

/** `ticket` of a body: as a filter names it; `null` or `""` clears. */
export async function resolveTicketLink(ctx: Context, given: string | null, forWork = false) {
  return clears(given) ? null : ticketNamed(ctx, given, forWork);
}
