import { randomBytes } from 'node:crypto';
import pg from 'pg';

async function connected(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/**
 * Whether two connections to `url` were served by one PostgreSQL session, one after the other: a
 * pooler in transaction (or statement) mode, which hands a session back to its pool after each
 * transaction. Two connections to PostgreSQL itself are two sessions while both are open, so a
 * shared one proves a pooler; different ones prove nothing (a pooler could have chosen another).
 * PgBouncer hands out the session it last had back, so one try finds it.
 */
export async function sharesSessions(url: string): Promise<boolean> {
  const first = await connected(url);
  try {
    const second = await connected(url);
    try {
      const pid = async (client: pg.Client) => (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      const firstPid = await pid(first);
      return (await pid(second)) === firstPid;
    } finally {
      await second.end().catch(() => {});
    }
  } finally {
    await first.end().catch(() => {});
  }
}

/**
 * Whether the pooler at `url` keeps protocol-level prepared statements per client (PgBouncer 1.21
 * and later with `max_prepared_statements`): it prepares them on each session under names of its
 * own, so the name a client gave is not on the server. A pooler that passes names through would
 * send a client's next run to a session that never prepared it. The probe's statement is
 * deallocated in its own transaction where it was kept, so it leaves no name on a pooled session.
 */
export async function keepsPreparedStatements(url: string): Promise<boolean> {
  const client = await connected(url);
  try {
    const name = `atrium_probe_${randomBytes(6).toString('hex')}`;
    await client.query('begin');
    const { rows } = await client.query<{ kept: number }>({
      name,
      text: 'select count(*)::int as kept from pg_prepared_statements where name = $1',
      values: [name],
    });
    const passedThrough = rows[0]!.kept > 0;
    if (passedThrough) await client.query(`deallocate ${pg.escapeIdentifier(name)}`);
    await client.query('commit');
    return !passedThrough;
  } finally {
    await client.end().catch(() => {});
  }
}
