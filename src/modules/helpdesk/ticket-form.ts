import type { Kysely } from 'kysely';
import type { Context } from '../../core/context.ts';
import { ApiError, invalid } from '../../core/errors.ts';
import { candidateList, refuseBlank } from '../../core/names.ts';
import type { DB } from '../../storage/schema.ts';
import { projectForms } from './repo.ts';
import { findForm } from './resolve.ts';
import type { HookProject, TicketForm, TicketRequestTypeHook } from '../tickets/index.ts';

type FormProject = HookProject;

/**
 * `request_type` of POST /tickets (spec 4.2): an active form of a helpdesk project, by key or
 * name. A retired form is refused (the portal no longer offers it); so is any form while the
 * helpdesk module is switched off.
 */
export async function formForNewTicket(ctx: Context, project: FormProject, given: string): Promise<TicketForm> {
  if (!ctx.settings.modules.helpdesk) {
    throw new ApiError(
      'feature_disabled',
      'The helpdesk module is switched off in this workspace, so tickets cannot be raised through a request type',
    );
  }
  return activeFormNamed(ctx.db, project, given);
}

/** An active form of a helpdesk project by key or name; anything else is 422 `invalid` on /request_type. */
export async function activeFormNamed(db: Kysely<DB>, project: FormProject, given: string): Promise<TicketForm> {
  if (project.kind !== 'helpdesk') {
    throw invalid('/request_type', `project ${project.key} is a ${project.kind} project; only helpdesk projects have request types`);
  }
  refuseBlank(given, '/request_type');
  const forms = await projectForms(db, project.id);
  const active = forms.filter((f) => !f.archived);
  const form = findForm(forms, given, false);
  if (form && !form.archived) return { id: form.id, name: form.name, ticketTypeId: form.ticket_type_id };
  const why = form ? `request type "${form.key}" is retired` : `no request type "${given.trim()}"`;
  throw invalid(
    '/request_type',
    `${why}; active request types are ${candidateList(
      given,
      active.map((f) => f.key),
    )}`,
  );
}

/** The helpdesk's answer to the tickets module's question "which request type is this?" (tickets/hooks.ts). */
export const ticketRequestTypeHook: TicketRequestTypeHook = { forNewTicket: formForNewTicket, forSeed: activeFormNamed };
