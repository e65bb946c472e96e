import type { Context } from '../../core/context.ts';
import { normalizeName } from '../../core/names.ts';
import { cachedWorkflow } from './project-config.ts';
import type { TicketState } from './repo.ts';
import { availableTransitions, screenOf, statusById } from './workflow-rules.ts';

/** A transition a move would take, and what it asks for when taken (its screen). */
export interface TransitionChoice {
  id: string;
  name: string;
  asks: { resolution: boolean; fields: string[] };
}

/** Where a ticket stands, and the first transition the member may take now into one of `statusNames` (null: none). */
export async function transitionInto(
  ctx: Context,
  ticket: TicketState,
  statusNames: readonly string[],
): Promise<{ status: string; staying: boolean; transition: TransitionChoice | null }> {
  const workflow = await cachedWorkflow(ctx, ticket.workflow_id);
  const wanted = new Set(statusNames.map(normalizeName));
  const status = statusById(workflow, ticket.status_id).name;
  if (wanted.has(normalizeName(status))) return { status, staying: true, transition: null };
  const available = await availableTransitions(ctx, ticket, workflow);
  const found = available.find((t) => wanted.has(normalizeName(statusById(workflow, t.to_status_id).name)));
  if (!found) return { status, staying: false, transition: null };
  const screen = screenOf(found);
  return {
    status,
    staying: false,
    transition: { id: found.id, name: found.name, asks: { resolution: screen.resolution ?? false, fields: screen.fields ?? [] } },
  };
}
