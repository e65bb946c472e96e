import type { Context } from '../../core/context.ts';
import { ApiError, invalid } from '../../core/errors.ts';
import { recordHistory } from '../../core/history.ts';
import { normalizeName, resolveName } from '../../core/names.ts';
import type { HistoryChange } from '../../storage/schema.ts';
import { insertComment } from './comments.ts';
import { checkFieldValues, writeFieldValues } from './fields.ts';
import { loadVisibleTicket, presentTicketById } from './load.ts';
import { announce } from './notify.ts';
import { resolveAssignee } from './people.ts';
import { requireTicketAction } from './policy.ts';
import { loadProjectConfig, loadWorkflow, type ProjectConfig, type Workflow, type WorkflowTransition } from './project-config.ts';
import { ticketRows, touchTicket, type TicketState } from './repo.ts';
import type { Ticket, TransitionBody } from './schemas.ts';
import { projectOf } from './update.ts';
import { resolveResolution } from './vocabulary.ts';
import { availableTransitions, filledFields, refusal, screenOf, statusById } from './workflow-rules.ts';

/** By name, id, or the name of the status it leads to (spec 2.1); otherwise 422 listing those available. */
function pickTransition(workflow: Workflow, available: WorkflowTransition[], given: string, ticket: TicketState): WorkflowTransition {
  const byName = { pointer: '/transition', what: 'transition', names: (t: WorkflowTransition) => [t.name, t.id] };
  const byTarget = { ...byName, names: (t: WorkflowTransition) => [statusById(workflow, t.to_status_id).name] };
  for (const options of [byName, byTarget]) {
    try {
      return resolveName(available, given, options);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
  const status = statusById(workflow, ticket.status_id).name;
  const choices = available.map((t) => `"${t.name}" (to ${statusById(workflow, t.to_status_id).name})`).join(', ');
  throw new ApiError(
    'transition_not_available',
    `/transition: "${given.trim()}" is not a transition you can take on ${ticket.key} from ${status} now; ${choices ? `you can take ${choices}` : 'you can take none'}`,
  );
}

/**
 * Resolution on entering a done status: the one given, else the one it has, else the default
 * (spec 4.2). A project that declares no resolutions resolves tickets without one: its done
 * statuses say how a ticket ended (a sales pipeline's Won and Lost).
 */
function resolutionFor(config: ProjectConfig, ticket: TicketState, transition: WorkflowTransition, intoDone: boolean, given: string | undefined) {
  if (!intoDone) {
    if (given !== undefined) throw invalid('/resolution', `${transition.name} does not lead to a done status, so it takes no resolution`);
    return null;
  }
  if (given !== undefined) return resolveResolution(config, given);
  if (config.resolutions.length === 0) return null;
  const kept = config.resolutions.find((r) => r.id === ticket.resolution_id) ?? config.resolutions.find((r) => r.is_default);
  if (!kept) {
    throw invalid('/resolution', `${transition.name} needs a resolution; resolutions are ${config.resolutions.map((r) => `"${r.name}"`).join(', ') || 'none'}`);
  }
  return kept;
}

/**
 * POST /tickets/{key}/transitions: checks the transition, its screen and its validators; a refusal
 * at any step rolls the whole change back, so a transition is never half done.
 */
export async function transitionTicket(ctx: Context, key: string, input: TransitionBody): Promise<Ticket> {
  const ticket = await loadVisibleTicket(ctx, key, true);
  await requireTicketAction(ctx, 'transition', ticket);
  const workflow = await loadWorkflow(ctx.db, ticket.workflow_id);
  const transition = pickTransition(workflow, await availableTransitions(ctx, ticket, workflow), input.transition, ticket);
  const screen = screenOf(transition);
  const config = await loadProjectConfig(ctx.db, projectOf(ticket));
  const from = statusById(workflow, ticket.status_id);
  const to = statusById(workflow, transition.to_status_id);
  const intoDone = to.category === 'done';

  const resolution = resolutionFor(config, ticket, transition, intoDone, input.resolution);
  if (input.assignee !== undefined && !screen.assignee) throw invalid('/assignee', `${transition.name} does not ask for an assignee`);
  const assignee = input.assignee !== undefined ? await resolveAssignee(ctx, input.assignee, config, ticket.assignee_id, '/assignee') : null;
  const asked = config.fields.filter((f) => (screen.fields ?? []).some((k) => normalizeName(k) === normalizeName(f.key)));
  for (const given of Object.keys(input.fields ?? {})) {
    if (!asked.some((f) => normalizeName(f.key) === normalizeName(given))) {
      throw invalid(`/fields/${given}`, `${transition.name} does not ask for it; it asks for ${asked.map((f) => `"${f.key}"`).join(', ') || 'no fields'}`);
    }
  }
  const fields = await checkFieldValues(ctx, asked, input.fields ?? {});
  if (input.comment !== undefined) await requireTicketAction(ctx, 'comment', ticket);

  const [before] = await ticketRows(ctx.db, [ticket.id]);
  const changes: HistoryChange[] = [{ field: 'status', from: from.name, to: to.name }];
  const resolutionId = resolution?.id ?? null;
  if (resolutionId !== ticket.resolution_id) changes.push({ field: 'resolution', from: before?.resolution_name ?? null, to: resolution?.name ?? null });
  const resolvedAt = intoDone ? (from.category === 'done' && ticket.resolved_at ? ticket.resolved_at : ctx.now().toISOString()) : null;
  if ((resolvedAt === null) !== (ticket.resolved_at === null)) changes.push({ field: 'resolved_at', from: ticket.resolved_at, to: resolvedAt });
  if (assignee && assignee.id !== ticket.assignee_id) changes.push({ field: 'assignee', from: before?.assignee_name ?? null, to: assignee.name });

  await ctx.db
    .updateTable('tickets')
    .set({
      status_id: to.id,
      resolution_id: resolutionId,
      resolved_at: resolvedAt,
      ...(assignee ? { assignee_id: assignee.id } : {}),
    })
    .where('id', '=', ticket.id)
    .execute();
  const fieldChanges = await writeFieldValues(ctx, ticket.id, fields);

  const filled = await filledFields(ctx, ticket.id);
  const unanswered = asked.filter((f) => !filled.has(f.key.toLowerCase()));
  if (unanswered.length) {
    throw invalid(`/fields/${unanswered[0]!.key}`, `${transition.name} asks for ${unanswered.map((f) => f.key).join(', ')}`);
  }
  const reason = refusal(transition, filled);
  if (reason) throw invalid('/transition', reason);

  let commentId: string | null = null;
  if (input.comment !== undefined) commentId = await insertComment(ctx, ticket.id, input.comment, input.comment_internal ?? false);
  await touchTicket(ctx.db, ticket.id);
  await recordHistory(ctx, { entityType: 'ticket', entityId: ticket.id, kind: 'transitioned', changes: [{ field: 'transition', from: null, to: transition.name }, ...changes] });
  if (fieldChanges.length) await recordHistory(ctx, { entityType: 'ticket', entityId: ticket.id, kind: 'fields', changes: fieldChanges });
  await announce(ctx, {
    ticket,
    kind: 'transitioned',
    payload: { transition: transition.name, from: from.name, to: to.name, ...(commentId ? { comment_id: commentId, comment: input.comment } : {}) },
    markdown: input.comment ?? null,
  });
  return presentTicketById(ctx, ticket.id);
}
