import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { parseDuration } from '../../core/durations.ts';
import { ApiError, invalid } from '../../core/errors.ts';
import { normalizeName, resolveName } from '../../core/names.ts';
import type { ApplyContext, WorkspaceSectionHandler } from '../../workspace/context.ts';
import { fail, filePath } from '../../workspace/path.ts';
import type { ProjectEntry } from '../../workspace/schema.ts';
import { checkFieldValuesWith, fieldsForType, newFieldValues } from './fields.ts';
import { loadProjectConfig, loadWorkflow, type ProjectConfig } from './project-config.ts';
import { commentInsert } from './comments.ts';
import { createTicketRow } from './new-ticket.ts';
import { ensureLabels, insertLink, setVersions } from './repo.ts';
import { labelNames, resolveComponents, resolvePriority, resolveResolution, resolveType } from './vocabulary.ts';
import { TicketSeeds, type TicketSeedEntry } from './workspace-schema.ts';

declare module '../../workspace/schema.ts' {
  interface ProjectEntryExtensions {
    tickets?: TicketSeedEntry[];
  }
}

/**
 * `projects[].tickets`: seed tickets (the demo's, a test's). Tickets are data, not configuration:
 * a seed is created once, keyed by its number in the project, and later applies leave it — and
 * any change made to it since — alone. Names are resolved with the same rules as the API, and a
 * seed and its comments are written by the API's own writes (createTicketRow, commentInsert), so a
 * rule added to a write holds for seeds too.
 */

/** An API-style name error (422 message) as a workspace-file error at the seed's path. */
async function at<T>(path: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError) fail(path, error.message.replace(/^\/[\w/]*: /, ''));
    throw error;
  }
}

async function createSeed(ctx: ApplyContext, config: ProjectConfig, seed: TicketSeedEntry, path: string): Promise<string> {
  const where = (field: string) => `${path}.${field}`;
  const forms = ctx.hooks.ticketRequestType;
  const form =
    seed.request_type === undefined
      ? null
      : await at(where('request_type'), () => {
          if (!forms) throw invalid('/request_type', 'request types need the helpdesk module');
          return forms.forSeed(ctx.db, config, seed.request_type!);
        });
  const type =
    seed.type === undefined
      ? (config.types.find((t) => t.id === form?.ticketTypeId) ?? config.types[0]!)
      : await at(where('type'), () => resolveType(config, seed.type!));
  const workflow = await loadWorkflow(ctx.db, type.workflow_id);
  const status =
    seed.status === undefined
      ? workflow.statuses[0]!
      : await at(where('status'), () =>
          resolveName(workflow.statuses, seed.status!, { pointer: '/status', what: 'status', names: (s) => [s.name] }),
        );
  const done = status.category === 'done';
  const priority = seed.priority === undefined ? null : await at(where('priority'), () => resolvePriority(config, seed.priority!));
  const resolution = !done
    ? null
    : seed.resolution !== undefined
      ? await at(where('resolution'), () => resolveResolution(config, seed.resolution!))
      : (config.resolutions.find((r) => r.is_default) ?? null);
  const person = (ref: string, field: string) => ctx.people.id(ref, where(field));
  const assigneeId = seed.assignee ? person(seed.assignee, 'assignee') : null;
  const reporterId = seed.reporter ? person(seed.reporter, 'reporter') : null;
  const components = await at(where('components'), () => resolveComponents(config, seed.components ?? []));
  const versions = await at(where('fix_versions'), () =>
    (seed.fix_versions ?? []).map((v) =>
      resolveName(config.versions, v, { pointer: '/fix_versions', what: 'version', names: (x) => [x.name] }),
    ),
  );
  let levelId: string | null = null;
  if (seed.security_level !== undefined) {
    const levels = await ctx.db.selectFrom('security_levels').select(['id', 'name']).where('project_id', '=', config.id).execute();
    levelId = (
      await at(where('security_level'), () =>
        resolveName(levels, seed.security_level!, { pointer: '/security_level', what: 'security level', names: (l) => [l.name] }),
      )
    ).id;
  }
  const estimate = seed.estimate === undefined ? null : parseDuration(seed.estimate);
  if (seed.estimate !== undefined && estimate === null) fail(where('estimate'), `"${seed.estimate}" is not a duration (like 2d or 3h 30m)`);
  const fields = await at(where('fields'), () =>
    checkFieldValuesWith(
      async (ref, pointer) => {
        const found = ctx.people.find(ref, `${path}.fields${pointer.replace(/^\/fields/, '').replace(/\//g, '.')}`);
        return { id: found.id!, name: found.name };
      },
      fieldsForType(config, type.name),
      seed.fields ?? {},
    ),
  );

  const ticketId = randomUUID();
  const fieldValues = newFieldValues(fields);
  await createTicketRow(
    ctx.db,
    { actorId: reporterId, via: 'workspace file' },
    { id: config.id, key: config.key, number: seed.number },
    {
      id: ticketId,
      summary: seed.summary,
      type_id: type.id,
      status_id: status.id,
      priority_id: priority?.id ?? null,
      resolution_id: resolution?.id ?? null,
      assignee_id: assigneeId,
      reporter_id: reporterId,
      security_level_id: levelId,
      request_type: form?.name ?? null,
      request_type_id: form?.id ?? null,
      description_format: seed.description === undefined ? null : (seed.description_format ?? 'markdown'),
      description_text: seed.description ?? null,
      due_date: seed.due_date ?? null,
      original_estimate_seconds: estimate,
      remaining_estimate_seconds: estimate,
      resolved_at: done ? new Date().toISOString() : null,
    },
    {
      watcherId: reporterId,
      labels: await ensureLabels(ctx.db, config.id, labelNames(seed.labels ?? [])),
      componentIds: components.map((c) => c.id),
      fields: fieldValues.rows,
      extra: null,
    },
    { changes: [...(form ? [{ field: 'request_type', from: null, to: form.name }] : []), ...fieldValues.changes], told: null },
  );
  await setVersions(
    ctx.db,
    ticketId,
    'fix',
    versions.map((v) => v.id),
  );

  for (const [c, comment] of (seed.comments ?? []).entries()) {
    const visibility = comment.visibility ?? 'public';
    const cpath = `${path}.comments[${c}].visibility`;
    const roleId = typeof visibility === 'object' && 'role' in visibility ? ctx.roleIds.get(normalizeName(visibility.role)) : undefined;
    const groupId = typeof visibility === 'object' && 'group' in visibility ? ctx.groupIds.get(normalizeName(visibility.group)) : undefined;
    if (typeof visibility === 'object' && !roleId && !groupId)
      fail(cpath, `no ${'role' in visibility ? 'role' : 'group'} "${'role' in visibility ? visibility.role : visibility.group}"`);
    await commentInsert({
      id: randomUUID(),
      ticketId,
      authorId: person(comment.author, `comments[${c}].author`),
      format: comment.format ?? 'markdown',
      body: comment.body,
      visibility: typeof visibility === 'string' ? visibility : 'restricted',
      restrictedRoleId: roleId ?? null,
      restrictedGroupId: groupId ?? null,
      // one transaction shares one now(): keep the file's order
      createdAt: sql<string>`now() + ${c} * interval '1 millisecond'`,
    }).execute(ctx.db);
  }
  ctx.writer.log.note('tickets', 'created');
  return ticketId;
}

async function applyProjectSeeds(ctx: ApplyContext, project: ProjectEntry, p: number): Promise<void> {
  const seeds = project.tickets ?? [];
  if (seeds.length === 0) return;
  const stored = await ctx.db
    .selectFrom('projects')
    .select(['id', 'key', 'kind', 'default_assignee_id'])
    .where('key', '=', project.key)
    .executeTakeFirstOrThrow();
  const config = await loadProjectConfig(ctx.db, stored);
  const existing = await ctx.db.selectFrom('tickets').select(['id', 'number']).where('project_id', '=', stored.id).execute();
  const ids = new Map(existing.map((t) => [t.number, t.id]));
  const numbers = new Set<number>();
  const created: { seed: TicketSeedEntry; path: string; id: string }[] = [];

  for (const [t, seed] of seeds.entries()) {
    const path = filePath('projects', p, 'tickets', t);
    if (numbers.has(seed.number)) fail(`${path}.number`, `${project.key}-${seed.number} is seeded twice`);
    numbers.add(seed.number);
    if (ids.has(seed.number)) continue;
    const id = await createSeed(ctx, config, seed, path);
    ids.set(seed.number, id);
    created.push({ seed, path, id });
  }

  for (const { seed, path, id } of created) {
    if (seed.parent !== undefined) {
      const parentId = ids.get(seed.parent);
      if (!parentId || parentId === id) fail(`${path}.parent`, `no ticket ${project.key}-${seed.parent} in the project`);
      await ctx.db.updateTable('tickets').set({ parent_id: parentId }).where('id', '=', id).execute();
    }
    for (const [l, link] of (seed.links ?? []).entries()) {
      const targetId = ids.get(link.ticket);
      if (!targetId) fail(`${path}.links[${l}].ticket`, `no ticket ${project.key}-${link.ticket} in the project`);
      await insertLink(ctx.db, id, targetId, link.relation);
    }
    await sql`update tickets set search_vector = ticket_search_document(id) where id = ${id}`.execute(ctx.db);
  }
  await sql`update projects set next_ticket_number = greatest(next_ticket_number, ${Math.max(...numbers) + 1}) where id = ${stored.id}`.execute(
    ctx.db,
  );
}

async function apply(ctx: ApplyContext): Promise<void> {
  for (const [p, project] of (ctx.file.projects ?? []).entries()) await applyProjectSeeds(ctx, project, p);
}

/** Runs after projects and request types: seeds name their types, statuses, people, labels, fields and forms. */
export const ticketsSection: WorkspaceSectionHandler = { name: 'tickets', projectKeys: { tickets: TicketSeeds }, check: () => {}, apply };
