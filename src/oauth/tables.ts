import type { ColumnType, Generated } from 'kysely';

// Row types of migration 0003-oauth as Kysely sees them; timestamps come back as text.
type Json<T> = ColumnType<T, string, string>;

export type ClientAuthMethod = 'none' | 'client_secret_post' | 'client_secret_basic';

export interface OAuthClientsTable {
  client_id: string;
  secret_hash: string | null;
  token_endpoint_auth_method: ClientAuthMethod;
  client_name: string | null;
  redirect_uris: string[];
  metadata: Json<Record<string, unknown>>;
  created_at: Generated<string>;
  last_used: string | null;
}

export interface OAuthGrantsTable {
  id: Generated<string>;
  client_id: string;
  member_id: string;
  scope: string;
  resource: string;
  created_at: Generated<string>;
  last_used: string | null;
  revoked_at: string | null;
}

export interface OAuthCodesTable {
  code_hash: string;
  client_id: string;
  member_id: string;
  redirect_uri: string;
  code_challenge: string;
  scope: string;
  resource: string;
  expires_at: string;
  consumed_at: string | null;
  grant_id: string | null;
  created_at: Generated<string>;
}

export interface OAuthConsentsTable {
  id: Generated<string>;
  session_hash: string;
  member_id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  scope: string;
  resource: string;
  state: string | null;
  expires_at: string;
  answered_at: string | null;
}

export interface WebSessionsTable {
  id_hash: string;
  member_id: string;
  created_at: Generated<string>;
  expires_at: string;
}

/** The columns migration 0003 adds to `tokens` (an OAuth token row is one access/refresh pair). */
export interface OAuthTokenColumns {
  client_id: ColumnType<string | null, string | null | undefined, string | null>;
  grant_id: ColumnType<string | null, string | null | undefined, string | null>;
  refresh_hash: ColumnType<string | null, string | null | undefined, string | null>;
  refresh_expires_at: ColumnType<string | null, string | null | undefined, string | null>;
  rotated_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface OAuthTables {
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_consents: OAuthConsentsTable;
  web_sessions: WebSessionsTable;
}

declare module '../storage/schema.ts' {
  interface DB extends OAuthTables {}
  interface TokensTable extends OAuthTokenColumns {}
}
