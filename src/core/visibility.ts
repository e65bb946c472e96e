import { sql, type RawBuilder } from 'kysely';
import type { MemberSql } from '../policy/ability.ts';

/** A record as a statement names it: an id, or an SQL expression such as `n.entity_id`. */
export type RecordSql = string | ReturnType<typeof sql.ref> | RawBuilder<string>;

/**
 * Who may see a record of one kind now, as SQL a statement asks for any member: the module's own
 * visibility rule (the one its reads ask), with the member's roles read by the statement itself.
 * Every channel that carries a record's content to a person asks it for the receiving member —
 * when a notification is written, a reminder fires, an email is sent or a live event is pushed,
 * and again when it is shown — so nobody is told what they may not read.
 */
export type RecordVisibility = (member: MemberSql, record: RecordSql) => RawBuilder<boolean>;

/** Each module's RecordVisibility by the entity type of its records (`ticket`, `interaction`, …). */
export type Visibilities = Readonly<Record<string, RecordVisibility>>;

/** All modules' visibilities in one object; two modules answering for one entity type is a mistake found at start. */
export function assembleVisibilities(modules: readonly { name: string; visibility?: Visibilities }[]): Visibilities {
  const all: Record<string, RecordVisibility> = {};
  for (const module of modules) {
    for (const [entityType, visible] of Object.entries(module.visibility ?? {})) {
      if (entityType in all) throw new Error(`the visibility of ${entityType} is given twice (by ${module.name})`);
      all[entityType] = visible;
    }
  }
  return Object.freeze(all);
}

/**
 * SQL: the record of `entityType` (a name, or an SQL expression such as `n.entity_type`) with id
 * `record` may be seen by `member` now. A kind no module answers for is seen by nobody.
 */
export function recordVisibleSql(
  visibilities: Visibilities,
  entityType: string | RawBuilder<string> | ReturnType<typeof sql.ref>,
  member: MemberSql,
  record: RecordSql,
): RawBuilder<boolean> {
  if (typeof entityType === 'string') return visibilities[entityType]?.(member, record) ?? sql<boolean>`false`;
  const cases = Object.entries(visibilities).map(
    ([type, seen]) => sql`when ${type}::text then ${seen(member, record)}`,
  );
  if (cases.length === 0) return sql<boolean>`false`;
  return sql<boolean>`(case ${entityType} ${sql.join(cases, sql` `)} else false end)`;
}
