import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { PendingTokenCheck } from '../../core/context.ts';
import { tokenCheckColumn } from '../../core/token-check.ts';
import type { DB, StatusesTable } from '../../storage/schema.ts';
import { normalizeKey } from '../../core/names.ts';
import type { StructureReader } from '../../core/structure-cache.ts';
import { cachedProjectLabels } from '../projects/index.ts';
import type { TicketsTable } from './tables.ts';
import { ticketAccessOf, type TicketAccess, type TicketScope } from './visibility.ts';
import { searchDocumentSet, type WordsChange } from './search-document.ts';
import { LINK_INWARD, type OutwardRelation } from './link-relations.ts';

type TicketColumns = Selectable<TicketsTable>;
type StatusCategory = Selectable<StatusesTable>['category'];

/** The columns of a ticket that rules look at (permission, workflow, arithmetic). */
export type TicketState = Pick<
  TicketColumns,
  | 'id'
  | 'key'
  | 'number'
  | 'project_id'
  | 'type_id'
  | 'status_id'
  | 'priority_id'
  | 'resolution_id'
  | 'assignee_id'
  | 'reporter_id'
  | 'parent_id'
  | 'security_level_id'
  | 'summary'
  | 'description_format'
  | 'description_text'
  | 'due_date'
  | 'remaining_estimate_seconds'
  | 'time_spent_seconds'
  | 'resolved_at'
> & {
  project_key: string;
  project_kind: string;
  project_default_assignee_id: string | null;
  workflow_id: string;
  status_category: StatusCategory;
};

/** SQL: the TicketState columns that are ticket `t`'s own. */
const ticketOwnStateColumns = sql`
  t.id, t.key, t.number, t.project_id, t.type_id, t.status_id, t.priority_id,
  t.resolution_id, t.assignee_id, t.reporter_id, t.parent_id, t.security_level_id, t.summary,
  t.description_format, t.description_text, t.due_date::text as due_date,
  t.remaining_estimate_seconds, t.time_spent_seconds, t.resolved_at`;

/** SQL: the TicketState columns of ticket `t`, joined to its project `p`, type `tt` and status `s`. */
const ticketStateColumns = sql`
  ${ticketOwnStateColumns}, p.key as project_key, p.kind as project_kind,
  p.default_assignee_id as project_default_assignee_id, tt.workflow_id, s.category as status_category`;

/**
 * The TicketState columns of ticket `t` alone in its FROM list, for a read that locks it. A read
 * that waited for the lock sees the row as the change before it left it, but a joined table's row
 * as it first found it: joined on a status, type or project that change replaced, the ticket
 * would not be found at all. A column's subquery is evaluated again on the newest row.
 */
const lockedTicketStateColumns = sql`
  ${ticketOwnStateColumns},
  (select p.key from projects p where p.id = t.project_id) as project_key,
  (select p.kind from projects p where p.id = t.project_id) as project_kind,
  (select p.default_assignee_id from projects p where p.id = t.project_id) as project_default_assignee_id,
  (select tt.workflow_id from ticket_types tt where tt.id = t.type_id) as workflow_id,
  (select s.category from statuses s where s.id = t.status_id) as status_category`;

/**
 * One ticket by key (case-insensitive) with whether the member may see it (ticketAccessOf: the
 * scope's lists as parameters of this statement were read at every bind; ADR 0007); `forUpdate`
 * locks its row so that concurrent changes to the same ticket run one after the other.
 */
export async function findTicketState(
  db: Kysely<DB>,
  key: string,
  scope: TicketScope,
  forUpdate = false,
  tokenCheck?: PendingTokenCheck,
): Promise<(TicketState & TicketAccess) | undefined> {
  // a read that locks is no read to send before the token's verdict: it never carries the check
  const check = tokenCheck && !forUpdate ? tokenCheck : undefined;
  const result = forUpdate
    ? await sql<TicketState & { token_check?: unknown }>`/*prepare*/
        select ${lockedTicketStateColumns} from tickets t where t.key = ${normalizeKey(key)} for update of t
      `.execute(db)
    : await sql<TicketState & { token_check?: unknown }>`/*prepare*/
        select ${check ? sql`${tokenCheckColumn(check.values, 'prepared')} as token_check,` : sql``} ${ticketStateColumns}
        from tickets t
        join projects p on p.id = t.project_id
        join ticket_types tt on tt.id = t.type_id
        join statuses s on s.id = t.status_id
        where t.key = ${normalizeKey(key)}
      `.execute(db);
  const found = result.rows[0];
  if (!found) return undefined;
  const { token_check: checked, ...row } = found;
  if (check) check.offer(checked);
  return { ...row, ...ticketAccessOf(scope, row) };
}

/** Everything a Ticket answer shows: the ticket's own columns and the names it refers to. */
export type TicketRow = Pick<
  TicketColumns,
  | 'id'
  | 'key'
  | 'number'
  | 'project_id'
  | 'summary'
  | 'assignee_id'
  | 'reporter_id'
  | 'security_level_id'
  | 'request_type'
  | 'description_format'
  | 'description_text'
  | 'environment_format'
  | 'environment_text'
  | 'due_date'
  | 'created_at'
  | 'updated_at'
  | 'resolved_at'
  | 'original_estimate_seconds'
  | 'remaining_estimate_seconds'
  | 'time_spent_seconds'
> & {
  project_key: string;
  project_kind: string;
  type_name: string;
  status_name: string;
  status_category: StatusCategory;
  priority_name: string | null;
  resolution_name: string | null;
  assignee_name: string | null;
  reporter_name: string | null;
  parent_key: string | null;
  security_level_name: string | null;
  labels: string[];
  components: string[];
  fix_versions: string[];
  affected_versions: string[];
  fields: Record<string, string> | null;
};

/** SQL: label names in name order, as a ticket keeps them in `label_names` (the database's collation decides the order, as everywhere). */
export const labelNamesInOrder = (names: readonly string[]) =>
  sql<string[]>`array(select n from unnest(${[...names]}::text[]) n order by n)`;

/**
 * SQL: the TicketRow columns of ticket `t` that name nothing of the workspace's structure, its
 * people included, and hold no list: its own, its parent's key, its labels (kept on the row).
 */
export const ticketScalarColumns = sql`
  t.id, t.key, t.number, t.project_id, t.summary, t.assignee_id, t.label_names as labels, t.updated_at, t.reporter_id,
  (select key from tickets where id = t.parent_id) as parent_key,
  t.security_level_id, t.request_type, t.description_format, t.description_text, t.environment_format, t.environment_text,
  t.due_date::text as due_date, t.created_at, t.resolved_at,
  t.original_estimate_seconds, t.remaining_estimate_seconds, t.time_spent_seconds`;

/** The TicketRow lists of components, versions and custom fields, by name. */
export type TicketLists = Pick<TicketRow, 'components' | 'fix_versions' | 'affected_versions' | 'fields'>;

/** TicketLists by id, as ticketListIdColumns reads them; the project's structure names them (detail.ts). */
export interface TicketListIds {
  component_ids: string[];
  fix_version_ids: string[];
  affected_version_ids: string[];
  /** [field id, display value] of each custom field the ticket has a value in */
  field_values: [fieldId: string, display: string][];
}

/**
 * SQL: the TicketListIds of ticket `t`, reading only the ticket's own link rows. ARRAY subqueries,
 * not aggregates, which PostgreSQL sets up for every execution at a larger cost (ADR 0037).
 */
export const ticketListIdColumns = sql`
  array(select tc.component_id from ticket_components tc where tc.ticket_id = t.id) as component_ids,
  array(select tv.version_id from ticket_versions tv where tv.ticket_id = t.id and tv.kind = 'fix') as fix_version_ids,
  array(select tv.version_id from ticket_versions tv where tv.ticket_id = t.id and tv.kind = 'affected') as affected_version_ids,
  array_to_json(array(select json_build_array(fv.field_id, fv.display) from ticket_field_values fv where fv.ticket_id = t.id)) as field_values`;

/**
 * SQL: the TicketRow columns of ticket `t` that name nothing of the workspace's structure but its
 * people, components, versions and fields. Scalar subqueries rather than a ten-way join: each is
 * planned alone, which keeps planning (the larger cost of a one-row read, on PGlite especially) small.
 * Lists are ARRAY subqueries (ticketListIdColumns).
 */
export const ticketOwnColumns = sql`${ticketScalarColumns},
  (select display_name from members where id = t.assignee_id) as assignee_name,
  (select display_name from members where id = t.reporter_id) as reporter_name,
  array(select c.name from ticket_components tc
        join components c on c.id = tc.component_id where tc.ticket_id = t.id order by c.position) as components,
  array(select v.name from ticket_versions tv
        join versions v on v.id = tv.version_id where tv.ticket_id = t.id and tv.kind = 'fix' order by v.position) as fix_versions,
  array(select v.name from ticket_versions tv
        join versions v on v.id = tv.version_id where tv.ticket_id = t.id and tv.kind = 'affected' order by v.position) as affected_versions,
  (select json_object_agg(cf.key, fv.display order by cf.position) from ticket_field_values fv
    join custom_fields cf on cf.id = fv.field_id where fv.ticket_id = t.id) as fields`;

/** The TicketRow columns ticketOwnColumns leaves out: names of the workspace's structure. */
export type TicketStructureNames = Pick<
  TicketRow,
  | 'project_key'
  | 'project_kind'
  | 'type_name'
  | 'status_name'
  | 'status_category'
  | 'priority_name'
  | 'resolution_name'
  | 'security_level_name'
>;

/**
 * SQL: the TicketRow columns of ticket `t` joined to its project `p` and status `s`. A ticket's
 * detail reads ticketOwnColumns alone and names the rest from the structure store (detail.ts).
 */
export const ticketRowColumns = sql`${ticketOwnColumns},
  p.key as project_key, p.kind as project_kind,
  (select name from ticket_types where id = t.type_id) as type_name,
  s.name as status_name, s.category as status_category,
  (select name from priorities where id = t.priority_id) as priority_name,
  (select name from resolutions where id = t.resolution_id) as resolution_name,
  (select name from security_levels where id = t.security_level_id) as security_level_name`;

/** TicketRows by id, in the order of `ids`, in one query. */
export async function ticketRows(db: Kysely<DB>, ids: readonly string[]): Promise<TicketRow[]> {
  if (ids.length === 0) return [];
  const result = await sql<TicketRow>`/*prepare*/
    select ${ticketRowColumns}
    from tickets t
    join projects p on p.id = t.project_id
    join statuses s on s.id = t.status_id
    where t.id = any(${[...ids]}::uuid[])
  `.execute(db);
  const byId = new Map(result.rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).filter((row): row is TicketRow => row !== undefined);
}

type InsertableTicket = Insertable<TicketsTable>;
type RequiredColumns = 'project_id' | 'number' | 'key' | 'summary' | 'type_id' | 'status_id';

/** A new ticket: what it must have; every other column starts empty unless given. */
export type NewTicket = Pick<InsertableTicket, RequiredColumns> & Partial<Omit<InsertableTicket, RequiredColumns>>;

export const EMPTY_TICKET = {
  priority_id: null,
  resolution_id: null,
  assignee_id: null,
  reporter_id: null,
  parent_id: null,
  security_level_id: null,
  request_type: null,
  request_type_id: null,
  description_format: null,
  description_text: null,
  environment_format: null,
  environment_text: null,
  due_date: null,
  original_estimate_seconds: null,
  remaining_estimate_seconds: null,
  time_spent_seconds: null,
  rank: null,
  resolved_at: null,
} satisfies Partial<InsertableTicket>;

/** Brings a ticket's search document up to date after a change of its `words` and marks it updated, in the caller's transaction. */
export async function touchTicket(db: Kysely<DB>, ticketId: string, words: WordsChange): Promise<void> {
  const document = searchDocumentSet(words);
  await sql`update tickets t set ${document ? sql`${document},` : sql``} updated_at = now() where t.id = ${ticketId}`.execute(db);
}

/** Replaces a ticket's labels: its ticket_labels rows and the names it keeps, in one statement. */
export async function setLabels(db: Kysely<DB>, ticketId: string, labels: readonly { id: string; name: string }[]): Promise<void> {
  const ids = labels.map((l) => l.id);
  await sql`
    with gone as (delete from ticket_labels where ticket_id = ${ticketId} and label_id <> all(${ids}::uuid[])),
    added as (insert into ticket_labels (ticket_id, label_id) select ${ticketId}, unnest(${ids}::uuid[]) on conflict do nothing)
    update tickets set label_names = ${labelNamesInOrder(labels.map((l) => l.name))} where id = ${ticketId}
  `.execute(db);
}

export async function setComponents(db: Kysely<DB>, ticketId: string, componentIds: readonly string[]): Promise<void> {
  await db.deleteFrom('ticket_components').where('ticket_id', '=', ticketId).execute();
  if (componentIds.length) {
    await db
      .insertInto('ticket_components')
      .values(componentIds.map((component_id) => ({ ticket_id: ticketId, component_id })))
      .execute();
  }
}

export async function setVersions(
  db: Kysely<DB>,
  ticketId: string,
  kind: 'fix' | 'affected',
  versionIds: readonly string[],
): Promise<void> {
  await db.deleteFrom('ticket_versions').where('ticket_id', '=', ticketId).where('kind', '=', kind).execute();
  if (versionIds.length) {
    await db
      .insertInto('ticket_versions')
      .values(versionIds.map((version_id) => ({ ticket_id: ticketId, version_id, kind })))
      .execute();
  }
}

export async function addWatcher(db: Kysely<DB>, ticketId: string, memberId: string): Promise<void> {
  await db
    .insertInto('ticket_watchers')
    .values({ ticket_id: ticketId, member_id: memberId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export interface LabelRef {
  id: string;
  name: string;
}

/**
 * Labels of a ticket a member creates or changes, named from the structure store without a round
 * trip (every writer of labels bumps config_version); null when the project lacks one, which
 * ensureLabels then adds. Read before the request writes a label, so the store never keeps one of
 * a transaction that may still roll back.
 */
export async function knownProjectLabels(ctx: StructureReader, projectId: string, names: readonly string[]): Promise<LabelRef[] | null> {
  if (names.length === 0) return [];
  const { idByName } = await cachedProjectLabels(ctx, projectId);
  const known = names.flatMap((name) => {
    const id = idByName.get(name);
    return id === undefined ? [] : [{ id, name }];
  });
  return known.length === names.length ? known : null;
}

/** knownProjectLabels, adding those the project lacks (in the request's transaction). */
export async function ensureProjectLabels(ctx: StructureReader, projectId: string, names: readonly string[]): Promise<LabelRef[]> {
  return (await knownProjectLabels(ctx, projectId, names)) ?? ensureLabels(ctx.db, projectId, names);
}

/**
 * Labels of a project by stored name, creating those it lacks (spec 4.2: new ones are added). A
 * label added bumps config_version in the same statement: a project's labels are kept in the
 * structure store (projects' `cachedProjectLabels`), and every process sees the new one at once.
 */
export async function ensureLabels(db: Kysely<DB>, projectId: string, names: readonly string[]): Promise<LabelRef[]> {
  if (names.length === 0) return [];
  const read = () =>
    db
      .selectFrom('labels')
      .select(['id', 'name'])
      .where('project_id', '=', projectId)
      .where('name', 'in', [...names])
      .execute();
  let rows = await read();
  if (names.some((name) => !rows.some((r) => r.name === name))) {
    await sql`
      with added as (
        insert into labels (project_id, name) select ${projectId}, unnest(${[...names]}::text[])
        on conflict (project_id, name) do nothing returning id
      )
      update workspace_settings set config_version = config_version + 1 where id = 1 and exists (select 1 from added)
    `.execute(db);
    // read again, in a statement of its own: it sees a label another create added meanwhile
    rows = await read();
  }
  return names.map((name) => rows.find((r) => r.name === name)!).filter(Boolean);
}

/** The one write of a link between two tickets, for the page's link and the workspace file's seeds: read `outward` from the source. */
export async function insertLink(db: Kysely<DB>, sourceId: string, targetId: string, outward: OutwardRelation): Promise<void> {
  await db.insertInto('ticket_links').values({ source_id: sourceId, target_id: targetId, outward, inward: LINK_INWARD[outward] }).execute();
}
