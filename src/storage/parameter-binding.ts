import { sql, type RawBuilder } from 'kysely';

/**
 * How a statement binds a value: as a value its plans are made for, or hidden behind an InitPlan,
 * which PostgreSQL estimates alike in a plan made for the values and in the generic plan of a
 * prepared statement. A prepared statement whose estimates depend on none of its values keeps its
 * generic plan after its fifth run, so it is no longer planned on every request; with a member's
 * 21 projects as a value, the plan made for them looked cheaper than the generic one, and every
 * search for a common word was planned again (ADR 0035).
 */
export type Binding = 'planned for' | 'opaque';

/** SQL: a uuid as a parameter, bound as `binding` says. */
export function uuidSql(id: string, binding: Binding): RawBuilder<string> {
  return binding === 'opaque' ? sql<string>`(select ${id}::uuid)` : sql<string>`${id}`;
}

/** SQL: a list of uuids as an array parameter, bound as `binding` says. */
export function uuidListSql(ids: readonly string[], binding: Binding): RawBuilder<string[]> {
  return binding === 'opaque' ? sql<string[]>`(select ${ids}::uuid[])::uuid[]` : sql<string[]>`${ids}::uuid[]`;
}

/** SQL: a text as a parameter, bound as `binding` says. */
export function textSql(text: string, binding: Binding): RawBuilder<string> {
  return binding === 'opaque' ? sql<string>`(select ${text}::text)` : sql<string>`${text}`;
}
