import type { Context } from '../../core/context.ts';
import { ApiError, invalid } from '../../core/errors.ts';
import { inTransaction } from '../../core/transaction.ts';
import { normalizeName, resolveName } from '../../core/names.ts';
import type { HistoryChange } from '../../storage/schema.ts';
import { insertComment } from './comments.ts';
import { checkFieldValues, writeFieldValues } from './fields.ts';
import { closeTicketChange, TicketChangedSinceRead, type ClosingColumns, type TicketAsRead } from './closing.ts';
import { loadVisibleTicket, presentTicketRow } from './load.ts';
import { resolveAssignee } from './people.ts';
import { requireTicketAction } from './policy.ts';
import {
  cachedProjectConfig,
  cachedWorkflow,
  type ProjectConfig,
  type Workflow,
  type WorkflowStatus,
  type WorkflowTransition,
} from './project-config.ts';
import { ticketRows, type TicketState } from './repo.ts';
import type { Ticket, TransitionBody } from './schemas.ts';
import { projectOf } from './update.ts';
import { resolveResolution } from './vocabulary.ts';
import { availableTransitions, filledFields, refusal, screenOf, statusById, validatorsOf } from './workflow-rules.ts';

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
function resolutionFor(
  config: ProjectConfig,
  ticket: TicketState,
  transition: WorkflowTransition,
  intoDone: boolean,
  given: string | undefined,
) {
  if (!intoDone) {
    if (given !== undefined) throw invalid('/resolution', `${transition.name} does not lead to a done status, so it takes no resolution`);
    return null;
  }
  if (given !== undefined) return resolveResolution(config, given);
  if (config.resolutions.length === 0) return null;
  const kept = config.resolutions.find((r) => r.id === ticket.resolution_id) ?? config.resolutions.find((r) => r.is_default);
  if (!kept) {
    throw invalid(
      '/resolution',
      `${transition.name} needs a resolution; resolutions are ${config.resolutions.map((r) => `"${r.name}"`).join(', ') || 'none'}`,
    );
  }
  return kept;
}

/** What a transition of a ticket as read will write, decided before anything is written. */
interface Decision {
  transition: WorkflowTransition;
  from: WorkflowStatus;
  to: WorkflowStatus;
  set: ClosingColumns;
  /** The history of the transition itself (the fields' come from their write). */
  changes: HistoryChange[];
  assignee: Awaited<ReturnType<typeof resolveAssignee>> | null;
  asked: ProjectConfig['fields'];
  fields: Awaited<ReturnType<typeof checkFieldValues>>;
  /** Whether anything is checked after the status is written (a new assignee, the screen's fields, validators). */
  checked: boolean;
}

/**
 * POST /tickets/{key}/transitions: checks the transition, its screen and its validators; a refusal
 * at any step rolls the whole change back, so a transition is never half done.
 *
 * Most transitions write one statement (ADR 0041): decided on the ticket read without a lock, by
 * the read that carries the token's check, and written only if the ticket still holds what the
 * decision read (Closing.asRead). One that writes more (a comment, the screen's fields, an
 * assignee, validators to check after the write), or finds the ticket changed, is decided again
 * on the ticket locked, in a transaction.
 */
export async function transitionTicket(ctx: Context, key: string, input: TransitionBody): Promise<Ticket> {
  // what it is sent with may already say that it writes more than one statement
  const alone = input.comment === undefined && input.assignee === undefined && input.fields === undefined;
  if (alone && !ctx.db.isTransaction) {
    const ticket = await loadVisibleTicket(ctx, key);
    const decision = await decideTransition(ctx, ticket, input);
    if (!decision.checked) {
      try {
        return await writeTransition(ctx, ticket, input, decision, ticket);
      } catch (error) {
        if (!(error instanceof TicketChangedSinceRead)) throw error;
      }
    }
  }
  return inTransaction(ctx, async (trx) => transitionLocked(trx, await loadVisibleTicket(trx, key, true), input));
}

/** A transition of a ticket its caller read with its row locked, in the transaction `ctx` runs in (a card move). */
export async function transitionLocked(ctx: Context, ticket: TicketState, input: TransitionBody): Promise<Ticket> {
  return writeTransition(ctx, ticket, input, await decideTransition(ctx, ticket, input));
}

async function decideTransition(ctx: Context, ticket: TicketState, input: TransitionBody): Promise<Decision> {
  await requireTicketAction(ctx, 'transition', ticket);
  const workflow = await cachedWorkflow(ctx, ticket.workflow_id);
  const transition = pickTransition(workflow, await availableTransitions(ctx, ticket, workflow), input.transition, ticket);
  const screen = screenOf(transition);
  const config = await cachedProjectConfig(ctx, projectOf(ticket));
  const from = statusById(workflow, ticket.status_id);
  const to = statusById(workflow, transition.to_status_id);
  const intoDone = to.category === 'done';

  const resolution = resolutionFor(config, ticket, transition, intoDone, input.resolution);
  if (input.assignee !== undefined && !screen.assignee) throw invalid('/assignee', `${transition.name} does not ask for an assignee`);
  const assignee =
    input.assignee !== undefined ? await resolveAssignee(ctx, input.assignee, config, ticket.assignee_id, '/assignee') : null;
  const asked = config.fields.filter((f) => (screen.fields ?? []).some((k) => normalizeName(k) === normalizeName(f.key)));
  for (const given of Object.keys(input.fields ?? {})) {
    if (!asked.some((f) => normalizeName(f.key) === normalizeName(given))) {
      throw invalid(
        `/fields/${given}`,
        `${transition.name} does not ask for it; it asks for ${asked.map((f) => `"${f.key}"`).join(', ') || 'no fields'}`,
      );
    }
  }
  const fields = await checkFieldValues(ctx, asked, input.fields ?? {});
  if (input.comment !== undefined) await requireTicketAction(ctx, 'comment', ticket);

  const resolutionId = resolution?.id ?? null;
  const resolvedAt = intoDone ? (from.category === 'done' && ticket.resolved_at ? ticket.resolved_at : ctx.now().toISOString()) : null;
  const reassigned = assignee !== null && assignee.id !== ticket.assignee_id;
  const names = await namesBefore(ctx, config, ticket, { resolution: resolutionId !== ticket.resolution_id, assignee: reassigned });
  const changes: HistoryChange[] = [{ field: 'status', from: from.name, to: to.name }];
  if (resolutionId !== ticket.resolution_id) changes.push({ field: 'resolution', from: names.resolution, to: resolution?.name ?? null });
  if ((resolvedAt === null) !== (ticket.resolved_at === null))
    changes.push({ field: 'resolved_at', from: ticket.resolved_at, to: resolvedAt });
  if (reassigned) changes.push({ field: 'assignee', from: names.assignee, to: assignee.name });

  return {
    transition,
    from,
    to,
    set: { status_id: to.id, resolution_id: resolutionId, resolved_at: resolvedAt },
    changes,
    assignee,
    asked,
    fields,
    checked: assignee !== null || asked.length > 0 || validatorsOf(transition).length > 0,
  };
}

/** Writes a decided transition: in one statement unless something is checked after the status is written. */
async function writeTransition(
  ctx: Context,
  ticket: TicketState,
  input: TransitionBody,
  decision: Decision,
  asRead?: TicketAsRead,
): Promise<Ticket> {
  const { transition, from, to, set, assignee, asked, checked } = decision;
  // With nothing to check after the write, the status goes with the closing statement; else first,
  // so that validators see it (and a new assignee is a watcher before the notifications).
  let fieldChanges: HistoryChange[] = [];
  if (checked) {
    await ctx.db
      .updateTable('tickets')
      .set({ ...set, ...(assignee ? { assignee_id: assignee.id } : {}) })
      .where('id', '=', ticket.id)
      .execute();
    fieldChanges = await writeFieldValues(ctx, ticket.id, decision.fields);
    const filled = await filledFields(ctx, ticket.id);
    const unanswered = asked.filter((f) => !filled.has(f.key.toLowerCase()));
    if (unanswered.length) {
      throw invalid(`/fields/${unanswered[0]!.key}`, `${transition.name} asks for ${unanswered.map((f) => f.key).join(', ')}`);
    }
    const reason = refusal(transition, filled);
    if (reason) throw invalid('/transition', reason);
  }

  let commentId: string | null = null;
  if (input.comment !== undefined) commentId = await insertComment(ctx, ticket.id, input.comment, input.comment_internal ?? false);
  const row = await closeTicketChange(ctx, ticket, {
    ...(checked ? {} : { set }),
    // a checked transition may have written custom field values, which the document holds
    words: { text: fieldChanges.length ? 'changed' : 'kept', ...(commentId ? { comment: commentId } : {}) },
    ...(asRead ? { asRead } : {}),
    history: [
      { kind: 'transitioned', changes: [{ field: 'transition', from: null, to: transition.name }, ...decision.changes] },
      ...(fieldChanges.length ? [{ kind: 'fields', changes: fieldChanges }] : []),
    ],
    announcement: {
      kind: 'transitioned',
      payload: {
        transition: transition.name,
        from: from.name,
        to: to.name,
        ...(commentId ? { comment_id: commentId, comment: input.comment } : {}),
      },
      markdown: input.comment ?? null,
    },
  });
  return presentTicketRow(ctx, row);
}

/**
 * The names history records as a change's "from": the resolution from the project's structure,
 * the assignee's (a person, not structure) read only when the assignee changes.
 */
async function namesBefore(ctx: Context, config: ProjectConfig, ticket: TicketState, changing: { resolution: boolean; assignee: boolean }) {
  const resolution = ticket.resolution_id === null ? null : config.resolutions.find((r) => r.id === ticket.resolution_id)?.name;
  if ((changing.resolution && resolution === undefined) || (changing.assignee && ticket.assignee_id !== null)) {
    const [before] = await ticketRows(ctx.db, [ticket.id]);
    return { resolution: before?.resolution_name ?? null, assignee: before?.assignee_name ?? null };
  }
  return { resolution: resolution ?? null, assignee: null };
}
