import { sql, type Kysely } from 'kysely';

// A pg_dump of a workspace with comments or pages could not be restored (ADR 0025, as for the
// CRM's companies before): pg_restore runs with an empty search_path, and comments' and pages'
// search_vector are computed, as each row is copied in, by search_document_within, whose body
// named search_words without a schema. The body now calls only built-in functions (always
// found): search_words' own rule, angle brackets read as spaces, written out. The documents are
// the ones they were.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function search_document_within(p_head tsvector, p_text text, p_weight "char") returns tsvector
    language plpgsql immutable parallel safe as $fn$
    declare
      v_length integer := length(p_text);
      v_text text := p_text;
      v_space integer;
    begin
      loop
        begin
          return p_head || setweight(to_tsvector('simple'::regconfig, translate(v_text, '<>', '  ')), p_weight);
        exception when program_limit_exceeded then
          if v_length = 0 then
            return p_head;
          end if;
          -- a quarter less, cut at the last whitespace so no word is cut in two
          v_length := v_length * 3 / 4;
          v_text := left(p_text, v_length);
          v_space := strpos(reverse(translate(v_text, E'\\n\\r\\t', '   ')), ' ');
          if v_space > 0 then
            v_text := left(v_text, v_length - v_space);
          end if;
        end;
      end loop;
    end
    $fn$;
  `.execute(db);
}
