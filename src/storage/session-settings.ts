import pg from 'pg';

/**
 * What every PostgreSQL session of the service runs with, whichever way it is set (database.ts):
 * - TimeZone UTC: dates and times are read and written in UTC.
 * - No JIT: on tables never analyzed (a new workspace, small tables autovacuum never reaches) the
 *   planner's guesses put plain look-ups over jit_above_cost, and each then spent 50–100 ms
 *   compiling (the bearer lookup of a demo workspace, 45–175 ms; the PostgreSQL tests, 47 against
 *   80 s). Our statements are short: none gained from it (the year's hours report neither).
 * - Sequential scans start at the table's first page: a search takes the first 250 matches the
 *   scan meets (tickets/search.ts), and a scan synchronized with the last one started wherever that
 *   one stopped, so the same search answered different tickets each time.
 */
export const SESSION_SETTINGS = { TimeZone: 'UTC', jit: 'off', synchronize_seqscans: 'off' } as const;

type SettingName = keyof typeof SESSION_SETTINGS;
const NAMES = Object.keys(SESSION_SETTINGS) as SettingName[];

/** The settings as startup options, for a connection that reaches PostgreSQL itself. */
export const STARTUP_OPTIONS = NAMES.map((name) => `-c ${name}=${SESSION_SETTINGS[name]}`).join(' ');

export interface SessionFacts {
  user: string;
  database: string;
  /** Each setting that is not as SESSION_SETTINGS says, with the value found: `jit=on`. */
  amiss: string[];
}

type Query = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/** Who the session is, and which of its settings are not the service's. */
export async function sessionFacts(query: Query): Promise<SessionFacts> {
  const columns = NAMES.map((name, i) => `current_setting('${name}') as s${i}`).join(', ');
  const { rows } = await query(`select current_user as "user", current_database() as database, ${columns}`);
  const row = rows[0]!;
  const amiss = NAMES.flatMap((name, i) => {
    const value = String(row[`s${i}`]);
    return value === SESSION_SETTINGS[name] ? [] : [`${name}=${value}`];
  });
  return { user: String(row.user), database: String(row.database), amiss };
}

/** The statements that make the settings the defaults of `user`'s sessions in `database`. */
export function roleDefaultsSql(user: string, database: string): string[] {
  const role = pg.escapeIdentifier(user);
  const where = pg.escapeIdentifier(database);
  return NAMES.map((name) => {
    const value = pg.escapeLiteral(SESSION_SETTINGS[name]);
    return `alter role ${role} in database ${where} set ${name} = ${value}`;
  });
}

/**
 * Makes the settings the defaults of this session's role in this database, where they are not
 * already: a session that a pooler opens gets them from there, since it cannot pass startup
 * options on. Sessions open before keep what they had. Returns the statements it ran.
 */
export async function ensureRoleDefaults(query: Query): Promise<string[]> {
  const { rows } = await query(
    `select coalesce(s.setconfig, '{}') as config, current_user as "user", current_database() as database
       from (select 1) one
       left join pg_db_role_setting s
         on s.setrole = (select oid from pg_roles where rolname = current_user)
        and s.setdatabase = (select oid from pg_database where datname = current_database())`,
  );
  const row = rows[0]!;
  const config = new Set(row.config as string[]);
  const missing = NAMES.filter((name) => !config.has(`${name}=${SESSION_SETTINGS[name]}`));
  if (missing.length === 0) return [];
  const all = roleDefaultsSql(String(row.user), String(row.database));
  const statements = missing.map((name) => all[NAMES.indexOf(name)]!);
  for (const statement of statements) await query(statement);
  return statements;
}
