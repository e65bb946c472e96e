import { randomUUID } from 'node:crypto';
import type { Context } from '../../core/context.ts';
import { inTransaction } from '../../core/transaction.ts';
import { resolveVisibleProject } from '../projects/index.ts';
import { checkFieldValues, fieldsForType, newFieldValues } from './fields.ts';
import { presentTicketRow } from './load.ts';
import { resolveAssignee } from './people.ts';
import { mayDo, requireTicketAction } from './policy.ts';
import { cachedProjectConfig, cachedWorkflow } from './project-config.ts';
import { createTicketRow } from './new-ticket.ts';
import { ensureLabels, knownProjectLabels, type LabelRef } from './repo.ts';
import type { CreateTicketBody, Ticket } from './schemas.ts';
import { defaultPriority, labelNames, resolveComponents, resolveParent, resolvePriority, resolveType } from './vocabulary.ts';
import { newDealCompany, requestTypeFor, resolveDealCompany } from './extensions.ts';

/**
 * POST /tickets: every name and custom field is checked before anything is written, so a
 * mistake creates nothing; then one statement takes the project's next number and writes the
 * ticket with everything it has (createTicketRow), so concurrent creates into one project wait on
 * the counter only for that statement and the commit. That statement runs alone, outside a
 * transaction (the operation's `oneStatement`), unless labels the project lacks are added first.
 */
export async function createTicket(ctx: Context, input: CreateTicketBody): Promise<Ticket> {
  const project = await resolveVisibleProject(ctx, input.project, '/project');
  const target = { project_id: project.id, project_key: project.key };
  await requireTicketAction(ctx, 'create', target);
  const config = await cachedProjectConfig(ctx, project);

  const form = input.request_type !== undefined ? await requestTypeFor(ctx, project, input.request_type) : null;
  // type left out: the form's ticket type, else the project's first (spec 4.2)
  const type =
    input.type !== undefined
      ? resolveType(config, input.type)
      : (config.types.find((t) => t.id === form?.ticketTypeId) ?? config.types[0]!);
  const priority = input.priority !== undefined ? resolvePriority(config, input.priority) : defaultPriority(ctx, config);
  const components = resolveComponents(config, input.components ?? []);
  const parent = input.parent !== undefined ? await resolveParent(ctx, config, input.parent) : null;
  const fields = await checkFieldValues(ctx, fieldsForType(config, type.name), input.fields ?? {});
  const company = input.company !== undefined ? await resolveDealCompany(ctx, project, input.company) : undefined;

  let assigneeId: string | null;
  if (input.assignee !== undefined && (await mayDo(ctx, 'assign', target))) {
    assigneeId = input.assignee === null ? null : (await resolveAssignee(ctx, input.assignee, project, null, '/assignee')).id;
  } else {
    // left out (or given without ticket:assign, which is ignored): the component's or project's default
    assigneeId = components.find((c) => c.default_assignee_id)?.default_assignee_id ?? project.default_assignee_id;
  }

  const workflow = await cachedWorkflow(ctx, type.workflow_id);
  // given by the service, for the other module's write that the create statement makes with the ticket
  const ticketId = randomUUID();
  const fieldValues = newFieldValues(fields);
  const deal = company !== undefined ? newDealCompany(ctx, ticketId, company) : { write: null, changes: [] };
  const write = (writer: Context, labels: readonly LabelRef[]) =>
    createTicketRow(
      writer.db,
      { actorId: ctx.actor.memberId, via: ctx.agent.name },
      project,
      {
        id: ticketId,
        summary: input.summary,
        type_id: type.id,
        status_id: workflow.statuses[0]!.id,
        priority_id: priority?.id ?? null,
        assignee_id: assigneeId,
        reporter_id: ctx.actor.memberId,
        parent_id: parent?.id ?? null,
        request_type: form?.name ?? null,
        request_type_id: form?.id ?? null,
        description_format: input.description !== undefined ? 'markdown' : null,
        description_text: input.description ?? null,
        due_date: input.due_date ?? null,
      },
      { watcherId: ctx.actor.memberId, labels, componentIds: components.map((c) => c.id), fields: fieldValues.rows, extra: deal.write },
      {
        changes: [...(form ? [{ field: 'request_type', from: null, to: form.name }] : []), ...fieldValues.changes, ...deal.changes],
        told: { ctx: writer, announcement: { kind: 'created', payload: { summary: input.summary }, markdown: input.description ?? null } },
      },
    );
  const names = labelNames(input.labels ?? []);
  const known = await knownProjectLabels(ctx, project.id, names);
  // labels the project lacks are added first, in one transaction with the ticket
  const row = known
    ? await write(ctx, known)
    : await inTransaction(ctx, async (trx) => write(trx, await ensureLabels(trx.db, project.id, names)));
  return presentTicketRow(ctx, row);
}
