import type { Context } from '../../core/context.ts';
import { ApiError } from '../../core/errors.ts';
import { normalizeKey, normalizeName } from '../../core/names.ts';
import type { HistoryChange } from '../../storage/schema.ts';
import { resolveDealCompany, writeDealCompany } from './extensions.ts';
import { checkFieldValues, fieldsForType, writeFieldValues } from './fields.ts';
import { closeTicketChange } from './closing.ts';
import { loadVisibleTicket, presentTicketById, presentTicketRow } from './load.ts';
import { resolveAssignee } from './people.ts';
import { mayDo, requireTicketAction } from './policy.ts';
import { cachedProjectConfig, loadWorkflow, type ProjectConfig } from './project-config.ts';
import { ensureProjectLabels, setComponents, setLabels, ticketRows, type TicketState } from './repo.ts';
import type { Ticket, UpdateTicketBody } from './schemas.ts';
import { labelNames, resolveComponents, resolveParent, resolvePriority, resolveType } from './vocabulary.ts';

export function projectOf(ticket: TicketState) {
  return {
    id: ticket.project_id,
    key: ticket.project_key,
    kind: ticket.project_kind,
    default_assignee_id: ticket.project_default_assignee_id,
  };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** A type change keeps the ticket in a status of the same name in the new type's workflow (spec 4.2). */
async function statusForType(ctx: Context, ticket: TicketState, type: ProjectConfig['types'][number]): Promise<string> {
  if (type.workflow_id === ticket.workflow_id) return ticket.status_id;
  const [current, target] = await Promise.all([loadWorkflow(ctx.db, ticket.workflow_id), loadWorkflow(ctx.db, type.workflow_id)]);
  const name = current.statuses.find((s) => s.id === ticket.status_id)?.name ?? '';
  const same = target.statuses.find((s) => normalizeName(s.name) === normalizeName(name));
  if (!same) {
    throw new ApiError(
      'status_not_in_workflow',
      `/type: ${type.name} tickets cannot be in status "${name}"; move ${ticket.key} to one of ${target.statuses.map((s) => `"${s.name}"`).join(', ')} first`,
    );
  }
  return same.id;
}

/**
 * PATCH /tickets/{key}: only what is sent changes. Everything is checked first; all changes are
 * one history entry and the custom fields a second, written with the notifications by the
 * statement that closes the change (closing.ts).
 */
export async function updateTicket(ctx: Context, key: string, input: UpdateTicketBody): Promise<Ticket> {
  const ticket = await loadVisibleTicket(ctx, key, true);
  await requireTicketAction(ctx, 'edit', ticket);
  const config = await cachedProjectConfig(ctx, projectOf(ticket));
  const [before] = await ticketRows(ctx.db, [ticket.id]);
  if (!before) throw new ApiError('not_found', `Ticket ${ticket.key} not found`);

  const set: Record<string, unknown> = {};
  const changes: HistoryChange[] = [];
  const change = (field: string, from: unknown, to: unknown) => changes.push({ field, from, to });

  if (input.summary !== undefined && input.summary !== ticket.summary) {
    set.summary = input.summary;
    change('summary', ticket.summary, input.summary);
  }
  if (input.description !== undefined && !(ticket.description_format === 'markdown' && input.description === ticket.description_text)) {
    // replacing an imported text stores Markdown; the history keeps the original as it was (spec 2.2)
    set.description_format = input.description === null ? null : 'markdown';
    set.description_text = input.description;
    change(
      'description',
      ticket.description_text === null ? null : { format: ticket.description_format, text: ticket.description_text },
      input.description === null ? null : { format: 'markdown', text: input.description },
    );
  }
  let typeName = before.type_name;
  if (input.type !== undefined) {
    const type = resolveType(config, input.type);
    if (type.id !== ticket.type_id) {
      set.type_id = type.id;
      set.status_id = await statusForType(ctx, ticket, type);
      change('type', before.type_name, type.name);
      typeName = type.name;
    }
  }
  if (input.priority !== undefined) {
    const priority = resolvePriority(config, input.priority);
    if (priority.id !== ticket.priority_id) {
      set.priority_id = priority.id;
      change('priority', before.priority_name, priority.name);
    }
  }
  if (input.assignee !== undefined && (await mayDo(ctx, 'assign', ticket))) {
    const assignee = input.assignee === null ? null : await resolveAssignee(ctx, input.assignee, config, ticket.assignee_id, '/assignee');
    if ((assignee?.id ?? null) !== ticket.assignee_id) {
      set.assignee_id = assignee?.id ?? null;
      change('assignee', before.assignee_name, assignee?.name ?? null);
    }
  }
  const components = input.components !== undefined ? resolveComponents(config, input.components) : null;
  if (input.parent !== undefined) {
    let parentId: string | null = null;
    if (input.parent !== null) {
      const parent = await resolveParent(ctx, config, input.parent);
      if (parent.id === ticket.id) {
        throw new ApiError('parent_not_found', `/parent: ${parent.key} cannot be the parent of ${ticket.key}`);
      }
      parentId = parent.id;
    }
    if (parentId !== ticket.parent_id) {
      set.parent_id = parentId;
      change('parent', before.parent_key, input.parent === null ? null : normalizeKey(input.parent));
    }
  }
  if (input.due_date !== undefined && input.due_date !== ticket.due_date) {
    set.due_date = input.due_date;
    change('due_date', ticket.due_date, input.due_date);
  }
  const fields = await checkFieldValues(ctx, fieldsForType(config, typeName), input.fields ?? {});
  const company = input.company !== undefined ? await resolveDealCompany(ctx, projectOf(ticket), input.company) : undefined;

  // every check has passed: write
  if (Object.keys(set).length) await ctx.db.updateTable('tickets').set(set).where('id', '=', ticket.id).execute();
  let labelsChanged = false;
  if (input.labels !== undefined) {
    const names = labelNames(input.labels);
    labelsChanged = !sameList([...names].sort(), before.labels);
    if (labelsChanged) {
      const labels = await ensureProjectLabels(ctx, ticket.project_id, names);
      await setLabels(ctx.db, ticket.id, labels);
      change('labels', before.labels, [...names].sort());
    }
  }
  if (components !== null) {
    const names = components.map((c) => c.name);
    if (!sameList(names, before.components)) {
      await setComponents(
        ctx.db,
        ticket.id,
        components.map((c) => c.id),
      );
      change('components', before.components, names);
    }
  }
  const fieldChanges = await writeFieldValues(ctx, ticket.id, fields);
  if (company !== undefined) changes.push(...(await writeDealCompany(ctx, ticket.id, company)));

  if (!changes.length && !fieldChanges.length) return presentTicketById(ctx, ticket.id);
  // the search document's text part is the summary, description, labels and custom field values
  const textChanged = 'summary' in set || 'description_text' in set || labelsChanged || fieldChanges.length > 0;
  // the history, the watchers' notifications (a new assignee among them: set above, its own
  // statement), the search document and the answer's row, in one statement
  const row = await closeTicketChange(ctx, ticket, {
    words: { text: textChanged ? 'changed' : 'kept' },
    history: [
      ...(changes.length ? [{ kind: 'updated', changes }] : []),
      ...(fieldChanges.length ? [{ kind: 'fields', changes: fieldChanges }] : []),
    ],
    announcement: {
      kind: 'updated',
      payload: { changes: [...changes, ...fieldChanges].map((c) => c.field) },
      markdown: typeof input.description === 'string' ? input.description : null,
    },
  });
  return presentTicketRow(ctx, row);
}
