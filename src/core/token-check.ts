import { sql, type CompiledQuery, type RawBuilder } from 'kysely';
import { isPlainSelect } from '../storage/gated-kysely.ts';

/**
 * How the statement that carries a token's check is planned: once per connection (a prepared
 * statement, which plans the check's joins with it), or on every request (which calls the check
 * through a function that keeps its own plan).
 */
export type CarrierPlan = 'prepared' | 'planned every time';

/** What a token's check binds: the presented token's hash, and the clock expiry is judged by (null: the database's). */
export type TokenCheckValues = readonly [hash: string, clock: string | null];

/**
 * SQL: the check of the token whose hash is given (no row when there is none): what may change
 * about a token without config_version moving. Its one declaration is migration 0023's function,
 * which a prepared statement inlines and plans with itself; a statement planned on every request
 * calls it through PL/pgSQL instead, which plans it once per connection.
 */
export function tokenCheckOf([hash, clock]: TokenCheckValues, plan: CarrierPlan = 'prepared'): RawBuilder<unknown> {
  return plan === 'prepared' ? sql`token_check(${hash}, ${clock}::timestamptz)` : sql`token_check_plpgsql(${hash}, ${clock}::timestamptz)`;
}

/**
 * SQL: the check as one more column of a read's statement, so that one round trip does for both.
 * As text: a list repeats it on every row, and only the first row's is parsed.
 */
export function tokenCheckColumn(values: TokenCheckValues, plan: CarrierPlan): RawBuilder<unknown> {
  return sql`(select row_to_json(c)::text from ${tokenCheckOf(values, plan)} c)`;
}

/**
 * Whether a statement carries the check (tokenCheckColumn over `values`) in a plain SELECT: the
 * one statement a change may send before its token's verdict, since it changes nothing.
 */
export function carriesCheck(query: CompiledQuery, [hash]: TokenCheckValues): boolean {
  return isPlainSelect(query) && query.parameters.includes(hash);
}

/**
 * What a change's statement held back by the gate fails with when the token's check did not pass:
 * the door then answers the 401, or makes the change again for the principal as it is now, so no
 * client ever sees it (surfaces/admission.ts, runChecked).
 */
export class TokenCheckNotPassed extends Error {
  constructor() {
    super('a change waited for its token check, which did not pass: nothing was sent');
  }
}
