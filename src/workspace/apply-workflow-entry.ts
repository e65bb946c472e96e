import { normalizeName } from '../core/names.ts';
import type { ApplyContext, StoredWorkflow } from './context.ts';
import { filePath, type PathPart } from './path.ts';
import type { TransitionEntry, WorkflowEntry } from './schema.ts';
import type { StoredRow } from './writer.ts';

/** Conditions as the tickets module reads them: a role is stored by its id. */
function storedConditions(ctx: ApplyContext, transition: TransitionEntry): unknown[] {
  return (transition.conditions ?? []).map((condition) => {
    if ('role' in condition) return { role_id: ctx.roleIds.get(normalizeName(condition.role))! };
    return condition;
  });
}

/** Field names as the tickets module compares them: custom field keys and ticket fields are lower case. */
const fieldKey = (name: string) => name.trim().toLowerCase();

function storedValidators(transition: TransitionEntry): unknown[] {
  return (transition.validators ?? []).map((v) => ({ ...v, require_fields: v.require_fields.map(fieldKey) }));
}

function storedScreen(transition: TransitionEntry): Record<string, unknown> {
  const screen = transition.screen ?? {};
  return screen.fields ? { ...screen, fields: screen.fields.map(fieldKey) } : screen;
}

/**
 * Writes one workflow by name: statuses and transitions upserted by name; transitions the file
 * no longer lists are deleted, and so are statuses, unless tickets are still in them.
 */
export async function applyWorkflowEntry(ctx: ApplyContext, entry: WorkflowEntry, at: readonly PathPart[]): Promise<StoredWorkflow> {
  const existing = await ctx.db
    .selectFrom('workflows')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['name']), '=', normalizeName(entry.name)))
    .executeTakeFirst();
  const id = await ctx.writer.save('workflows', existing as StoredRow | undefined, { name: entry.name.trim() });

  const storedStatuses = await ctx.db.selectFrom('statuses').selectAll().where('workflow_id', '=', id).execute();
  const statusIds = new Map<string, string>();
  for (const [position, status] of entry.statuses.entries()) {
    const current = storedStatuses.find((s) => normalizeName(s.name) === normalizeName(status.name));
    const statusId = await ctx.writer.save('statuses', current as StoredRow | undefined, {
      workflow_id: id,
      name: status.name.trim(),
      category: status.category,
      position,
    });
    statusIds.set(normalizeName(status.name), statusId);
  }

  const storedTransitions = await ctx.db.selectFrom('transitions').selectAll().where('workflow_id', '=', id).execute();
  const listed = new Set<string>();
  for (const [position, transition] of entry.transitions.entries()) {
    const current = storedTransitions.find((t) => normalizeName(t.name) === normalizeName(transition.name));
    const transitionId = await ctx.writer.save('transitions', current as StoredRow | undefined, {
      workflow_id: id,
      name: transition.name.trim(),
      from_status_ids: transition.from === 'any' ? null : transition.from.map((name) => statusIds.get(normalizeName(name))!),
      to_status_id: statusIds.get(normalizeName(transition.to))!,
      conditions: JSON.stringify(storedConditions(ctx, transition)),
      validators: JSON.stringify(storedValidators(transition)),
      screen: JSON.stringify(storedScreen(transition)),
      position,
    });
    listed.add(transitionId);
  }
  await ctx.writer.delete(
    'transitions',
    storedTransitions.filter((t) => !listed.has(t.id)).map((t) => t.id),
  );

  const keptStatuses = new Set(statusIds.values());
  await ctx.writer.deleteUnreferenced(
    'statuses',
    storedStatuses.filter((s) => !keptStatuses.has(s.id)),
    filePath(...at, 'statuses'),
    'status',
  );
  const stored: StoredWorkflow = { id, statusIds };
  ctx.workflows.set(normalizeName(entry.name), stored);
  return stored;
}

/** Every stored workflow with its statuses, for names the file uses without declaring. */
export async function loadStoredWorkflows(ctx: ApplyContext): Promise<void> {
  const [workflows, statuses] = await Promise.all([
    ctx.db.selectFrom('workflows').select(['id', 'name']).execute(),
    ctx.db.selectFrom('statuses').select(['id', 'workflow_id', 'name']).execute(),
  ]);
  for (const workflow of workflows) {
    const statusIds = new Map(statuses.filter((s) => s.workflow_id === workflow.id).map((s) => [normalizeName(s.name), s.id]));
    ctx.workflows.set(normalizeName(workflow.name), { id: workflow.id, statusIds });
  }
}
