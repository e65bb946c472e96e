import { sql, type Kysely } from 'kysely';

// A pg_dump of a workspace with companies could not be restored (ADR 0025):
// pg_restore runs with an empty search_path, and companies.search_vector is computed, as each row
// is copied in, by crm_company_document, whose body named crm_words without a schema. The body now
// calls only built-in functions (always found), and gives the same words as before: the stored
// vectors stay as they are.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function crm_company_document(p_name text, p_industry text, p_domains text[]) returns tsvector
    language sql immutable parallel safe as $fn$
      select to_tsvector('simple'::regconfig, translate(
        coalesce(p_name || ' ' || coalesce(p_industry, '') || ' ' || array_to_string(p_domains, ' '), ''),
        '@.-_+/:<>', '         '))
    $fn$;
  `.execute(db);
}
