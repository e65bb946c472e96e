import { sql, type RawBuilder } from 'kysely';
import type { MemberSql } from '../policy/ability.ts';
import { moduleOnSql, type SwitchableModule } from './settings.ts';

/** A record as a statement names it: an id, or an SQL expression such as `n.entity_id`. */
export type RecordSql = string | ReturnType<typeof sql.ref> | RawBuilder<string>;

/**
 * Who may see a record of one kind now, as SQL a statement asks for any member: the module's own
 * visibility rule (the one its reads ask), with the member's roles read by the statement itself.
 * Every channel that carries a record's content to a person asks it for the receiving member —
 * when a notification is written, a reminder fires, an email is sent or a live event is pushed,
 * and again when it is shown — so nobody is told what they may not read. While the module is
 * switched off, nobody may (assembleVisibilities adds its switch).
 */
export type RecordVisibility = (member: MemberSql, record: RecordSql) => RawBuilder<boolean>;

/** Each module's RecordVisibility by the entity type of its records (`ticket`, `interaction`, …). */
export type Visibilities = Readonly<Record<string, RecordVisibility>>;

/** What assembleVisibilities reads of a module (core/module.ts's ModuleDefinition). */
interface RecordModule {
  name: string;
  visibility?: Visibilities;
  switch?: SwitchableModule;
}

/**
 * All modules' visibilities in one object, each asking its module's switch first: while a module
 * is switched off its records reach nobody, and reach again who may see them when it is back on.
 * Two modules answering for one entity type is a mistake found at start.
 */
export function assembleVisibilities(modules: readonly RecordModule[]): Visibilities {
  const all: Record<string, RecordVisibility> = {};
  for (const module of modules) {
    for (const [entityType, visible] of Object.entries(module.visibility ?? {})) {
      if (entityType in all) throw new Error(`the visibility of ${entityType} is given twice (by ${module.name})`);
      const { switch: switchedBy } = module;
      all[entityType] = switchedBy
        ? (member, record) => sql<boolean>`(${moduleOnSql(switchedBy)} and ${visible(member, record)})`
        : visible;
    }
  }
  return Object.freeze(all);
}

/** The switch of each entity type's module, for a list that leaves out the records of a module switched off. */
export function assembleRecordSwitches(modules: readonly RecordModule[]): Readonly<Record<string, SwitchableModule>> {
  const switches: Record<string, SwitchableModule> = {};
  for (const module of modules) {
    if (!module.switch) continue;
    for (const entityType of Object.keys(module.visibility ?? {})) switches[entityType] = module.switch;
  }
  return Object.freeze(switches);
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
  const cases = Object.entries(visibilities).map(([type, seen]) => sql`when ${type}::text then ${seen(member, record)}`);
  if (cases.length === 0) return sql<boolean>`false`;
  return sql<boolean>`(case ${entityType} ${sql.join(cases, sql` `)} else false end)`;
}
