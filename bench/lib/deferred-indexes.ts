import { sql, type Transaction } from 'kysely';
import type { DB } from '../../src/storage/schema.ts';

/**
 * Runs a bulk load with the tables' secondary indexes dropped, then builds them again from their
 * own definitions (pg_get_indexdef), so the schema after the load is the migrations' own. One
 * build over the loaded rows costs far less than keeping every index up to date row by row:
 * each ticket is written twice (inserted, then given its search document), and on PGlite every
 * index entry is WebAssembly work. Indexes that back a constraint stay (they check it), and so do
 * the ones named in `keep`: those the load itself reads by. Call it inside a transaction, so that
 * a failed load leaves the indexes as they were.
 */
export async function withIndexesBuiltAfter<T>(
  trx: Transaction<DB>,
  tables: readonly string[],
  keep: readonly string[],
  load: () => Promise<T>,
): Promise<T> {
  const { rows: deferred } = await sql<{ name: string; definition: string }>`
    select i.relname as name, pg_get_indexdef(x.indexrelid) as definition
    from pg_index x join pg_class i on i.oid = x.indexrelid
    where x.indrelid = any(${sql.raw(`array[${tables.map((t) => `'${t}'::regclass`).join(', ')}]`)})
      and not exists (select from pg_constraint c where c.conindid = x.indexrelid)
      and i.relname <> all(${[...keep]}::text[])
    order by i.relname
  `.execute(trx);
  for (const index of deferred) await sql`drop index ${sql.id(index.name)}`.execute(trx);
  const result = await load();
  // GIN and btree builds sort in memory up to this size instead of spilling to disk
  await sql`set local maintenance_work_mem = '256MB'`.execute(trx);
  for (const index of deferred) await sql.raw(index.definition).execute(trx);
  return result;
}
