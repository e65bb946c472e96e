import { ApiError } from '../../core/errors.ts';
import { normalizeName, resolveName } from '../../core/names.ts';
import { rankAfter, rerank } from '../../core/rank.ts';
import type { ApplyContext, CheckContext, WorkspaceSectionHandler } from '../../workspace/context.ts';
import { fail, filePath, pointerToPath } from '../../workspace/path.ts';
import type { ProjectEntry } from '../../workspace/schema.ts';
import type { StoredRow } from '../../workspace/writer.ts';
import { checkFormFields, DEFAULT_FORM_FIELDS } from './form-fields.ts';
import { projectForms, renameFormOnTickets, type FormRow } from './repo.ts';
import { loadFormVocabulary, type FormVocabulary } from './vocabulary.ts';
import { RequestTypeEntries, type RequestTypeEntry } from './workspace-schema.ts';

declare module '../../workspace/schema.ts' {
  interface ProjectEntryExtensions {
    request_types?: RequestTypeEntry[];
  }
}

/**
 * `projects[].request_types`: a helpdesk project's forms. Each listed form is upserted by key and
 * follows the file (a field left out takes its default), except `archived`, which changes only
 * when the file says so; listed forms come first in the portal, in the file's order. Forms the
 * file does not list (made through the API) stay as they are.
 */

function check(ctx: CheckContext): void {
  (ctx.file.projects ?? []).forEach((project, p) => {
    const forms = project.request_types;
    if (forms === undefined) return;
    const at = (...parts: (string | number)[]) => filePath('projects', p, 'request_types', ...parts);
    if (project.kind !== 'helpdesk' && forms.length > 0)
      fail(at(), `only helpdesk projects have request types; ${project.key} is a ${project.kind} project`);
    const keys = new Map<string, number>();
    const names = new Map<string, number>();
    forms.forEach((form, i) => {
      const key = normalizeName(form.key);
      if (keys.has(key)) fail(at(i, 'key'), `request type "${form.key}" is declared twice (also ${at(keys.get(key)!)})`);
      keys.set(key, i);
      if (form.archived) return;
      const name = normalizeName(form.name);
      if (names.has(name)) fail(at(i, 'name'), `two active request types are named "${form.name.trim()}" (also ${at(names.get(name)!)})`);
      names.set(name, i);
    });
  });
}

/** A rule of the API (a name matching nothing, a summary made optional) as a mistake at its place in the file. */
function atPath<T>(path: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ApiError) {
      const [pointer = '', ...reason] = error.message.split(': ');
      fail(`${path}${pointerToPath(pointer).replace(/^(?=\w)/, '.')}`, reason.join(': '));
    }
    throw error;
  }
}

function wantedRow(vocabulary: FormVocabulary, form: RequestTypeEntry, stored: FormRow | undefined, path: string) {
  const types = vocabulary.types.filter((t) => !t.is_subtask);
  const type = atPath(path, () =>
    resolveName(types, form.ticket_type, { pointer: '/ticket_type', what: 'ticket type', names: (t) => [t.name] }),
  );
  const fields = form.fields ? atPath(path, () => checkFormFields(vocabulary, type.name, form.fields!)) : [...DEFAULT_FORM_FIELDS];
  return {
    key: form.key,
    name: form.name.trim(),
    description: form.description ?? null,
    help_text: form.help_text ?? null,
    portal_group: form.portal_group?.trim() || null,
    hidden: form.hidden ?? false,
    submission: form.submission ?? 'authenticated',
    ticket_type_id: type.id,
    archived: form.archived ?? stored?.archived ?? false,
    fields: JSON.stringify(fields),
  };
}

async function applyProjectForms(ctx: ApplyContext, project: ProjectEntry, p: number): Promise<void> {
  const entries = project.request_types ?? [];
  if (entries.length === 0) return;
  const { id: projectId } = await ctx.db.selectFrom('projects').select('id').where('key', '=', project.key).executeTakeFirstOrThrow();
  const vocabulary = await loadFormVocabulary(ctx.db, projectId);
  const stored = await projectForms(ctx.db, projectId);
  const raw = await ctx.db.selectFrom('request_types').selectAll().where('project_id', '=', projectId).execute();
  const ranks = stored.map((f) => f.rank);
  const listedIds: string[] = [];

  for (const [i, form] of entries.entries()) {
    const path = filePath('projects', p, 'request_types', i);
    const existing = stored.find((f) => normalizeName(f.key) === normalizeName(form.key));
    const wanted = wantedRow(vocabulary, form, existing, path);
    const clash = stored.find(
      (f) => f.id !== existing?.id && !f.archived && !wanted.archived && normalizeName(f.name) === normalizeName(wanted.name),
    );
    if (clash && !entries.some((e) => normalizeName(e.key) === normalizeName(clash.key))) {
      fail(`${path}.name`, `request type "${clash.key}", which the file does not list, is already named "${clash.name}"`);
    }
    let id: string;
    if (existing) {
      id = await ctx.writer.save('request_types', raw.find((r) => r.id === existing.id) as StoredRow, wanted, { touch: true });
      if (existing.name !== wanted.name) await renameFormOnTickets(ctx.db, id, wanted.name);
    } else {
      // a new form goes to the end; placeListedFirst then puts the file's forms in the file's order
      const rank = rankAfter(ranks);
      ranks.push(rank);
      id = await ctx.writer.save('request_types', undefined, { ...wanted, project_id: projectId, rank });
    }
    listedIds.push(id);
  }
  await placeListedFirst(ctx, projectId, listedIds);
}

/** The file's active forms first in the portal, in the file's order; the others after them as they were. */
async function placeListedFirst(ctx: ApplyContext, projectId: string, listedIds: readonly string[]): Promise<void> {
  const active = (await projectForms(ctx.db, projectId)).filter((f) => !f.archived);
  const listed = listedIds.map((id) => active.find((f) => f.id === id)).filter((f): f is FormRow => f !== undefined);
  const order = [...listed, ...active.filter((f) => !listed.includes(f))];
  for (const [id, rank] of rerank(order)) {
    await ctx.db.updateTable('request_types').set({ rank }).where('id', '=', id).execute();
    ctx.writer.log.note('request_types', 'updated');
  }
}

async function apply(ctx: ApplyContext): Promise<void> {
  for (const [p, project] of (ctx.file.projects ?? []).entries()) await applyProjectForms(ctx, project, p);
}

/** Runs after projects (forms name their ticket types and custom fields) and before seed tickets. */
export const requestTypesSection: WorkspaceSectionHandler = {
  name: 'request_types',
  projectKeys: { request_types: RequestTypeEntries },
  check,
  apply,
};
