import { recordAudit } from '../../core/audit.ts';
import type { Context } from '../../core/context.ts';
import { invalid } from '../../core/errors.ts';
import { rerank } from '../../core/rank.ts';
import { requireFormChange } from './policy.ts';
import { presentForms } from './read.ts';
import { lockProjectForms, projectForms, updateForm, type FormRow } from './repo.ts';
import { loadHelpdeskProject, resolveForm } from './resolve.ts';
import type { OrderBody, RequestTypeList } from './schemas.ts';

/** The active forms in the order asked: those named first, in that order, then the rest as they were. */
function wantedOrder(active: readonly FormRow[], order: OrderBody['order']): FormRow[] {
  const named: FormRow[] = [];
  order.forEach((given, i) => {
    const form = resolveForm(active, given, { pointer: `/order/${i}`, byId: true });
    const earlier = named.indexOf(form);
    if (earlier >= 0) throw invalid(`/order/${i}`, `request type "${form.key}" is named twice (also /order/${earlier})`);
    named.push(form);
  });
  return [...named, ...active.filter((f) => !named.includes(f))];
}

/**
 * POST /projects/{key}/request-types/order: the portal order of the active forms (retired ones
 * are not in the portal and keep their places after them). Only forms that move get a new rank.
 */
export async function reorderRequestTypes(ctx: Context, projectKey: string, input: OrderBody): Promise<RequestTypeList> {
  const project = await loadHelpdeskProject(ctx, projectKey);
  await lockProjectForms(ctx.db, project.id);
  const forms = await projectForms(ctx.db, project.id);
  const what = 'reorder request types';
  await requireFormChange(ctx.ability, project, { kind: 'order', movesOpenForm: false }, what);

  const active = forms.filter((f) => !f.archived);
  const order = wantedOrder(active, input.order);
  const movesOpenForm = order.some((form, i) => form.submission === 'open' && active[i] !== form);
  await requireFormChange(ctx.ability, project, { kind: 'order', movesOpenForm }, `${what} so that an open form moves`);

  const ranks = rerank(order);
  if (ranks.size === 0) return presentForms(ctx, project, forms, false);
  for (const [id, rank] of ranks) await updateForm(ctx.db, id, { rank });
  await recordAudit(ctx, {
    action: 'request_types.reordered',
    targetType: 'request_types',
    targetId: project.id,
    target: `${project.key} request types`,
    projectId: project.id,
    changes: [{ field: 'order', from: active.map((f) => f.key), to: order.map((f) => f.key) }],
  });
  return presentForms(ctx, project, await projectForms(ctx.db, project.id), false);
}
