import type { Context } from '../../core/context.ts';
import { ApiError, invalid } from '../../core/errors.ts';
import { resolveName } from '../../core/names.ts';
import { resolveVisibleProject } from '../projects/index.ts';
import { loadVisibleTicket, requireTicketAction } from '../tickets/index.ts';

export interface Linked {
  id: string;
  name: string;
}

/** `project` of a request: a project the member can see, by key; `null` or `""` clears. */
export async function resolveProjectLink(ctx: Context, given: string | null): Promise<{ id: string; key: string } | null> {
  if (given === null || given.trim() === '') return null;
  const project = await resolveVisibleProject(ctx, given, '/project');
  return { id: project.id, key: project.key };
}

/** `customer`: an organization by name (case-insensitive); a name matching none is 422 listing them. */
export async function resolveCustomer(ctx: Context, given: string | null, pointer = '/customer'): Promise<Linked | null> {
  if (given === null || given.trim() === '') return null;
  const organizations = await ctx.db.selectFrom('organizations').select(['id', 'name']).orderBy('name').execute();
  return resolveName(organizations, given, { pointer, what: 'customer', names: (o) => [o.name, o.id] });
}

/**
 * `ticket`: a ticket the member can see, by key, with its project; one they cannot see is named
 * like one that does not exist (422). To log time on it (`forWork`) the member must be allowed to
 * log work there (ticket:comment and time:log, spec 5.6): the activity becomes its worklog.
 */
export async function resolveTicketLink(ctx: Context, given: string | null, forWork = false): Promise<{ id: string; key: string; projectId: string; projectKey: string } | null> {
  if (given === null || given.trim() === '') return null;
  let ticket: Awaited<ReturnType<typeof loadVisibleTicket>>;
  try {
    ticket = await loadVisibleTicket(ctx, given);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) throw invalid('/ticket', `no ticket "${given.trim()}" that you can see`);
    throw error;
  }
  if (forWork) await requireTicketAction(ctx, 'log_work', ticket);
  return { id: ticket.id, key: ticket.key, projectId: ticket.project_id, projectKey: ticket.project_key };
}
