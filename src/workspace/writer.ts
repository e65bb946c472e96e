import { sql, type Kysely } from 'kysely';
import type { DB } from '../storage/schema.ts';
import type { ChangeLog } from './changes.ts';
import { fail } from './path.ts';
import { sameValue } from './same-value.ts';

export type WorkspaceTable = keyof DB & string;
export interface StoredRow {
  id: string;
  [column: string]: unknown;
}

// The writer serves every workspace table alike, so it speaks to Kysely without per-table types;
// each section still reads its rows with full types.
type LooseDB = Record<string, Record<string, unknown>>;

interface Reference {
  table: string;
  column: string;
}

/**
 * Writes a row only when it differs from what is stored, and counts what it wrote: applying the
 * same file twice touches no row, keeps every id and leaves config_version alone.
 */
export class Writer {
  private readonly referenceCache = new Map<string, Reference[]>();

  readonly db: Kysely<DB>;
  readonly log: ChangeLog;

  constructor(db: Kysely<DB>, log: ChangeLog) {
    this.db = db;
    this.log = log;
  }

  private get loose(): Kysely<LooseDB> {
    return this.db as unknown as Kysely<LooseDB>;
  }

  /** Inserts `wanted`, or updates the columns of `existing` that differ; returns the row's id. */
  async save(
    table: WorkspaceTable,
    existing: StoredRow | undefined,
    wanted: Record<string, unknown>,
    options: { touch?: boolean } = {},
  ): Promise<string> {
    if (!existing) {
      const row = await this.loose.insertInto(table).values(wanted).returning('id').executeTakeFirstOrThrow();
      this.log.note(table, 'created');
      return String(row.id);
    }
    const patch: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(wanted)) {
      if (value !== undefined && !sameValue(existing[column], value)) patch[column] = value;
    }
    if (Object.keys(patch).length > 0) {
      if (options.touch) patch.updated_at = new Date().toISOString();
      await this.loose.updateTable(table).set(patch).where('id', '=', existing.id).execute();
      this.log.note(table, 'updated');
    }
    return existing.id;
  }

  /** Deletes rows by id (rows whose deletion nothing can block, such as grants). */
  async delete(table: WorkspaceTable, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.loose
      .deleteFrom(table)
      .where('id', 'in', [...ids])
      .execute();
    this.log.note(table, 'deleted', ids.length);
  }

  /**
   * Deletes records the file no longer lists, unless other data still points at them (a status
   * tickets are in, a priority tickets carry): then the apply stops and says what holds it.
   */
  async deleteUnreferenced(
    table: WorkspaceTable,
    rows: readonly { id: string; name: string }[],
    path: string,
    what: string,
  ): Promise<void> {
    for (const row of rows) {
      const holders = await this.holders(table, row.id);
      if (holders.length > 0) {
        fail(path, `${what} "${row.name}" is no longer listed but is still used (${holders.join(', ')}); keep it in the file`);
      }
    }
    await this.delete(
      table,
      rows.map((r) => r.id),
    );
  }

  private async holders(table: WorkspaceTable, id: string): Promise<string[]> {
    const found: string[] = [];
    for (const reference of await this.referencesTo(table)) {
      const { count } = await sql<{
        count: number;
      }>`select count(*)::int as count from ${sql.table(reference.table)} where ${sql.ref(reference.column)} = ${id}`
        .execute(this.db)
        .then((r) => r.rows[0] ?? { count: 0 });
      if (count > 0) found.push(`${count} in ${reference.table}`);
    }
    return found;
  }

  /** Foreign keys that point at `table` and would block a delete (cascading ones do not). */
  private async referencesTo(table: WorkspaceTable): Promise<Reference[]> {
    let references = this.referenceCache.get(table);
    if (!references) {
      const result = await sql<Reference>`
        select source.relname as table, attribute.attname as column
        from pg_constraint c
        join pg_class source on source.oid = c.conrelid
        join pg_attribute attribute on attribute.attrelid = c.conrelid and attribute.attnum = any (c.conkey)
        where c.contype = 'f' and c.confrelid = to_regclass(${table}) and c.confdeltype <> 'c'`.execute(this.db);
      references = result.rows;
      this.referenceCache.set(table, references);
    }
    return references;
  }
}
