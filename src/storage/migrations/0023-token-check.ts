import { sql, type Kysely } from 'kysely';

// Every request of a token the process holds checks it (auth/bearer.ts): revoked, expired, its
// member deactivated, config_version moved. Reads carry the check as one more column of their own
// statement, to save a round trip; but a statement planned on every request (a search, planned
// for its words) planned the check's four-table join with it, which cost PostgreSQL more than
// the round trip it saved (ADR 0034).
//
// token_check is the check's only declaration. It is an SQL function, which PostgreSQL inlines
// into a calling statement: a prepared statement plans its joins once, as if written inline.
// token_check_plpgsql calls it from PL/pgSQL, which keeps its statements' plans for the
// connection's life: a statement planned on every request plans one function call instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function token_check(presented_hash text, clock timestamptz)
    returns table (token_id uuid, token_hash text, member_id uuid, usable boolean, stale_use boolean, config_version bigint)
    language sql stable as $fn$
      select t.id, t.token_hash, m.id,
        t.revoked_at is null and g.revoked_at is null
          and (t.expires_at is null or t.expires_at > coalesce(clock, now()))
          and m.active and m.email is not null,
        t.last_used_at is null or t.last_used_at < now() - interval '1 minute',
        s.config_version
      from tokens t
      join members m on m.id = t.member_id
      -- an OAuth access token also dies with its connection (revoked, or refresh reuse detected)
      left join oauth_grants g on g.id = t.grant_id
      cross join workspace_settings s
      where t.token_hash = presented_hash
    $fn$;

    create function token_check_plpgsql(presented_hash text, clock timestamptz)
    returns table (token_id uuid, token_hash text, member_id uuid, usable boolean, stale_use boolean, config_version bigint)
    language plpgsql stable rows 1 as $fn$
    begin
      return query select * from token_check(presented_hash, clock);
    end
    $fn$;
  `.execute(db);
}
