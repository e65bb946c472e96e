import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { historyInsert } from '../../core/history.ts';
import type { DB, HistoryChange } from '../../storage/schema.ts';
import { PREPARE } from '../../storage/prepared.ts';
import type { NewFieldValue } from './fields.ts';
import { announcementInserts, type Announcement } from './notify.ts';
import { EMPTY_TICKET, labelNamesInOrder, ticketRowColumns, type NewTicket, type TicketRow } from './repo.ts';

export interface NewTicketLinks {
  /** The reporter, who watches the ticket (the assignee watches it too, by trigger); a seed may have none. */
  watcherId: string | null;
  labels: readonly { id: string; name: string }[];
  componentIds: readonly string[];
  fields: readonly NewFieldValue[];
  /** Another module's write about the ticket (a deal's company), made by the same statement. */
  extra: RawBuilder<unknown> | null;
}

/** Whom the history names as the ticket's creator: the member and their token's name, or a seed's reporter and the file. */
export interface TicketCreator {
  actorId: string | null;
  via: string | null;
}

export interface NewTicketRecord {
  /** The `created` entry's changes after the key (which the statement fills in). */
  changes: HistoryChange[];
  /** What a member's create tells its watchers and the mentioned, as that member (`ctx`); a seed tells nobody. */
  told: { ctx: Context; announcement: Omit<Announcement, 'ticket' | 'watchers'> } | null;
}

/**
 * The one write of a new ticket, for POST /tickets and the workspace file's seeds alike: a single
 * statement takes the project's next number (a seed gives its own), inserts the ticket with its
 * number, key and search document, its labels, components, custom field values and reporter as
 * watcher, records `created` under the key, tells the watchers and the mentioned, and answers the
 * ticket as it shows. The project's counter row is locked from this statement to the commit only,
 * so concurrent creates into one project overlap in everything before it; a create that fails
 * rolls the counter back, so numbers never repeat or skip.
 *
 * A statement cannot read the rows it writes, so the link rows are written by CTEs named after
 * their tables: the answer's columns, which read those tables, read the CTEs' rows instead. The
 * ticket's watchers (the reporter and the assignee) are given to the announcement for the same reason.
 */
export async function createTicketRow(
  db: Kysely<DB>,
  by: TicketCreator,
  project: { id: string; key: string; number?: number },
  values: Omit<NewTicket, 'project_id' | 'number' | 'key'> & { id: string },
  links: NewTicketLinks,
  record: NewTicketRecord,
): Promise<TicketRow> {
  const { id } = values;
  const key = sql`(select key from n)`;
  const row: Record<string, unknown> = { ...EMPTY_TICKET, ...values, project_id: project.id };
  const columns = Object.keys(row);
  const labelNames = links.labels.map((l) => l.name);
  const document = sql`ticket_text_document_of(${key}, ${values.summary}::text, ${labelNames}::text[],
    ${values.description_text ?? null}::text, ${values.environment_text ?? null}::text, ${links.fields.map((f) => f.display)}::text[])`;
  const history = historyInsert(
    by,
    { entityType: 'ticket', entityId: id },
    [{ kind: 'created', changes: [{ field: 'key', from: null, to: null }, ...record.changes] }],
    { to: key },
  );
  const numbered =
    project.number === undefined
      ? sql`select number, key from take_ticket_number(${project.id}::uuid)`
      : sql`select ${project.number}::int as number, ${`${project.key}-${project.number}`}::text as key`;
  const watchers = [...(links.watcherId ? [links.watcherId] : []), ...(values.assignee_id ? [values.assignee_id] : [])];
  const place = { projectId: project.id, securityLevelId: values.security_level_id ?? null };
  const announcements = record.told
    ? announcementInserts(record.told.ctx, { ticket: { id, key, place }, watchers, ...record.told.announcement })
    : [];
  const writes = [history, ...announcements, ...(links.extra ? [links.extra] : [])];
  const fields = JSON.stringify(links.fields);
  // prepared: a few fixed shapes (no mention, one to eight names, or more; another module's write
  // or not; a seed's), each one row
  const result = await sql<TicketRow>`${sql.raw(PREPARE)}
    with n as (${numbered}),
    t as (
      insert into tickets (${sql.join(columns.map((c) => sql.ref(c)))}, number, key, search_vector, label_names)
      values (${sql.join(columns.map((c) => sql`${row[c]}`))}, (select number from n), ${key}, ${document}, ${labelNamesInOrder(labelNames)})
      returning *
    ),
    watcher as (insert into ticket_watchers (ticket_id, member_id) select ${id}::uuid, ${links.watcherId}::uuid where ${links.watcherId}::uuid is not null),
    ticket_labels as (
      insert into ticket_labels (ticket_id, label_id) select ${id}::uuid, unnest(${links.labels.map((l) => l.id)}::uuid[]) returning *
    ),
    ticket_components as (
      insert into ticket_components (ticket_id, component_id) select ${id}::uuid, unnest(${[...links.componentIds]}::uuid[]) returning *
    ),
    ticket_field_values as (
      insert into ticket_field_values (ticket_id, field_id, value, display)
      select ${id}::uuid, f.field_id, f.value, f.display from jsonb_to_recordset(${fields}::jsonb) as f(field_id uuid, value jsonb, display text)
      returning *
    ),
    ${sql.join(writes.map((write, i) => sql`${sql.raw(`w${i}`)} as (${write})`))}
    select ${ticketRowColumns}
    from t join projects p on p.id = t.project_id join statuses s on s.id = t.status_id
  `.execute(db);
  return result.rows[0]!;
}
