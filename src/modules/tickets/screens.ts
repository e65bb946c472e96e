import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { normalizeName } from '../../core/names.ts';
import { loadVisibleProject, projectsByKey } from '../projects/index.ts';
import { fieldsForType } from './fields.ts';
import { loadVisibleTicket } from './load.ts';
import { cachedProjectConfig, cachedWorkflow, type ProjectConfig } from './project-config.ts';
import { mayDo, mayWriteInternalNote } from './policy.ts';
import { ticketRecordVisibleSql } from './visibility.ts';
import { availableTransitions, screenOf, statusById } from './workflow-rules.ts';

/** A custom field as a form asks for it: its key, its name, its kind, its choices. */
export interface FieldShape {
  key: string;
  name: string;
  type: string;
  choices: string[];
}

const shapeOf = (f: ProjectConfig['fields'][number]): FieldShape => ({ key: f.key, name: f.name, type: f.type, choices: f.choices });

/**
 * The custom fields a ticket of `type` in a project the member can see has (the project's first
 * type when none is named): what the create form asks beside the fields every ticket has.
 */
export async function customFieldsFor(ctx: Context, projectKey: string, type?: string): Promise<FieldShape[]> {
  const project = await loadVisibleProject(ctx, projectKey);
  const config = await cachedProjectConfig(ctx, project);
  const chosen = config.types.find((t) => normalizeName(t.name) === normalizeName(type ?? '')) ?? config.types[0];
  return chosen ? fieldsForType(config, chosen.name).map(shapeOf) : [];
}

/** A transition the member can take now, with what its screen asks (spec 4.2: resolution, assignee, fields). */
export interface TransitionScreen {
  id: string;
  name: string;
  to_status: string;
  asks: { resolution: boolean; assignee: boolean; fields: FieldShape[] };
}

/** What a screen's comment may be: whether the member may add one (ticket:comment), and an internal note. */
export interface ScreenComment {
  allowed: boolean;
  internal: boolean;
}

async function commentOf(ctx: Context, ticket: Awaited<ReturnType<typeof loadVisibleTicket>>): Promise<ScreenComment> {
  const [allowed, internal] = await Promise.all([mayDo(ctx, 'comment', ticket), mayWriteInternalNote(ctx, ticket)]);
  return { allowed, internal };
}

/**
 * The comment the member may add to a ticket they can see (ADR 0075): any, and an internal note.
 * What the ticket page's comment form offers; add_comment enforces the same rules.
 */
export async function commentChoices(ctx: Context, key: string): Promise<ScreenComment> {
  return commentOf(ctx, await loadVisibleTicket(ctx, key));
}

/**
 * The transitions the member can take on a ticket now, each with its screen, the project's
 * resolutions, and the comment the member may add with a move (spec 4.2: comment, and
 * comment_internal where they may write an internal note): what the ticket page offers and the
 * transition form asks. The same rules as
 * list_transitions (404 or 403 for a ticket the member cannot see).
 */
export async function transitionScreens(
  ctx: Context,
  key: string,
): Promise<{ key: string; resolutions: string[]; comment: ScreenComment; transitions: TransitionScreen[] }> {
  const ticket = await loadVisibleTicket(ctx, key);
  const project = await loadVisibleProject(ctx, ticket.project_key);
  const [workflow, config, comment] = await Promise.all([
    cachedWorkflow(ctx, ticket.workflow_id),
    cachedProjectConfig(ctx, project),
    commentOf(ctx, ticket),
  ]);
  const available = await availableTransitions(ctx, ticket, workflow);
  const transitions = available.map((t) => {
    const screen = screenOf(t);
    const asked = new Set((screen.fields ?? []).map(normalizeName));
    return {
      id: t.id,
      name: t.name,
      to_status: statusById(workflow, t.to_status_id).name,
      asks: {
        resolution: screen.resolution ?? false,
        assignee: screen.assignee ?? false,
        fields: config.fields.filter((f) => asked.has(normalizeName(f.key))).map(shapeOf),
      },
    };
  });
  return { key: ticket.key, resolutions: config.resolutions.map((r) => r.name), comment, transitions };
}

/** A member a comment may mention: what `@` completes to. */
export interface Mentionable {
  username: string;
  name: string;
}

/**
 * Active members who may read a ticket the member can see, whose name or username begins with
 * `prefix` (any word of the name): those an `@username` in its comments would tell. At most ten.
 */
export async function mentionableMembers(ctx: Context, key: string, prefix: string): Promise<Mentionable[]> {
  const ticket = await loadVisibleTicket(ctx, key);
  const begins = `${prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await sql<Mentionable>`
    select m.username, m.display_name as name from members m
    where m.active
      and (lower(m.username) like ${begins} or lower(m.display_name) like ${begins} or lower(m.display_name) like ${`% ${begins}`})
      and ${ticketRecordVisibleSql(sql.ref('m.id'), sql<string>`${ticket.id}::uuid`)}
    order by lower(m.display_name), m.username
    limit 10`.execute(ctx.db);
  return rows;
}

/**
 * The names of the transitions the workflows of these projects hold (of the projects the member
 * can see, in workflow order, each name once whatever its case): what a bulk change offers to
 * take. Whether a ticket may take one now is transition_ticket's to say, ticket by ticket.
 */
export async function workflowTransitionNames(ctx: Context, projectKeys: readonly string[]): Promise<string[]> {
  const visible = await ctx.ability.visibleProjectIds();
  const wanted = new Set(projectKeys);
  // a project the member cannot see offers nothing
  const projects = (await projectsByKey(ctx)).filter((p) => wanted.has(p.key) && (visible === null || visible.has(p.id)));
  const names = new Map<string, string>();
  for (const project of projects) {
    const config = await cachedProjectConfig(ctx, project);
    for (const workflowId of new Set(config.types.map((t) => t.workflow_id))) {
      for (const transition of (await cachedWorkflow(ctx, workflowId)).transitions) {
        const folded = normalizeName(transition.name);
        if (!names.has(folded)) names.set(folded, transition.name);
      }
    }
  }
  return [...names.values()];
}
