import { sql, type Kysely } from 'kysely';

// The OAuth 2.1 authorization server (spec 5.2) and the browser pages' sessions. Every secret
// (client secret, code, token, session id) is stored as its SHA-256 hex digest only.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table oauth_clients (
      -- text, not uuid: 'svc_client_…' today, and open to URL client ids later (metadata documents)
      client_id text primary key,
      secret_hash text,
      token_endpoint_auth_method text not null
        check (token_endpoint_auth_method in ('none', 'client_secret_post', 'client_secret_basic')),
      client_name text,
      redirect_uris text[] not null,
      metadata jsonb not null default '{}',
      created_at timestamptz not null default now(),
      last_used timestamptz,
      check ((token_endpoint_auth_method = 'none') = (secret_hash is null))
    );

    -- A connection: one consent of one member to one application. Revoking it ends every token
    -- descended from it.
    create table oauth_grants (
      id uuid primary key default gen_random_uuid(),
      client_id text not null references oauth_clients(client_id) on delete cascade,
      member_id uuid not null references members(id) on delete cascade,
      scope text not null,
      resource text not null,
      created_at timestamptz not null default now(),
      last_used timestamptz,
      revoked_at timestamptz
    );
    create index oauth_grants_member_idx on oauth_grants (member_id);
    create index oauth_grants_client_idx on oauth_grants (client_id);

    create table oauth_codes (
      code_hash text primary key,
      client_id text not null references oauth_clients(client_id) on delete cascade,
      member_id uuid not null references members(id) on delete cascade,
      redirect_uri text not null,
      code_challenge text not null,
      scope text not null,
      resource text not null,
      expires_at timestamptz not null,
      consumed_at timestamptz,
      -- the connection minted from this code, revoked if the code is replayed
      grant_id uuid references oauth_grants(id) on delete set null,
      created_at timestamptz not null default now()
    );
    create index oauth_codes_client_idx on oauth_codes (client_id);

    -- An authorization request waiting for the member's answer on the consent page. Built from
    -- the checked request; the code is made from this record, never from form fields.
    create table oauth_consents (
      id uuid primary key default gen_random_uuid(),
      session_hash text not null,
      member_id uuid not null references members(id) on delete cascade,
      client_id text not null references oauth_clients(client_id) on delete cascade,
      redirect_uri text not null,
      code_challenge text not null,
      scope text not null,
      resource text not null,
      state text,
      expires_at timestamptz not null,
      answered_at timestamptz
    );

    -- An OAuth token row is one access/refresh pair: token_hash is the access token's digest (so
    -- bearer authentication finds it like any token), refresh_hash the refresh token's.
    alter table tokens
      add column client_id text references oauth_clients(client_id) on delete cascade,
      add column grant_id uuid references oauth_grants(id) on delete cascade,
      add column refresh_hash text unique,
      add column refresh_expires_at timestamptz,
      add column rotated_at timestamptz;
    alter table tokens add constraint tokens_oauth_shape
      check ((kind = 'oauth') = (grant_id is not null and refresh_hash is not null));
    create index tokens_grant_idx on tokens (grant_id) where grant_id is not null;

    create table web_sessions (
      id_hash text primary key,
      member_id uuid not null references members(id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index web_sessions_member_idx on web_sessions (member_id);
  `.execute(db);
}
