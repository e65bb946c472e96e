import { isUuid } from './schema-kit.ts';
import { sql } from 'kysely';
import type { Context } from './context.ts';
import { normalizeName, resolveName } from './names.ts';
import type { Person } from './shapes.ts';

/** People as every module names them (spec 2.1): `me`, a display name or an id; assignees also by email address. */

interface MemberMatch {
  id: string;
  name: string;
}

/** Active members a name could mean: display name, id, and (for assignees) email address. */
export async function membersNamed(ctx: Pick<Context, 'db'>, given: string, byEmail: boolean): Promise<MemberMatch[]> {
  const wanted = normalizeName(given);
  const rows = await sql<MemberMatch>`
    select id, display_name as name from members
    where active and (lower(display_name) = ${wanted}
      ${isUuid(wanted) ? sql`or id = ${wanted}::uuid` : sql``}
      ${byEmail ? sql`or lower(email) = ${wanted}` : sql``})
    order by display_name
  `.execute(ctx.db);
  return rows.rows;
}

async function allActiveMembers(ctx: Context): Promise<MemberMatch[]> {
  return ctx.db.selectFrom('members').select(['id', 'display_name as name']).where('active', '=', true).orderBy('display_name').execute();
}

/** A person named by `me`, display name or id (spec 2.1); a miss lists up to 25 people. */
export async function resolvePerson(ctx: Context, given: string, pointer: string): Promise<Person> {
  if (normalizeName(given) === 'me') return { id: ctx.actor.memberId, name: ctx.actor.name };
  const [found] = await membersNamed(ctx, given, false);
  if (found) return found;
  return resolveName(await allActiveMembers(ctx), given, { pointer, what: 'person', names: (m) => [m.name, m.id], display: (m) => m.name });
}
