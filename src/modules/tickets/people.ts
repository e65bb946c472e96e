import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { ApiError } from '../../core/errors.ts';
import { normalizeName, resolveName } from '../../core/names.ts';
import type { Person } from '../../core/shapes.ts';
import { membersHolding } from '../../policy/ability.ts';

interface MemberMatch {
  id: string;
  name: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Active members a name could mean: display name, id, and (for assignees) email address. */
async function membersNamed(ctx: Context, given: string, byEmail: boolean): Promise<MemberMatch[]> {
  const wanted = normalizeName(given);
  const rows = await sql<MemberMatch>`
    select id, display_name as name from members
    where active and (lower(display_name) = ${wanted}
      ${UUID.test(wanted) ? sql`or id = ${wanted}::uuid` : sql``}
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

/** The people tickets of a project can be assigned to (ProjectDetail.assignable_users). */
export function assignablePeople(ctx: Context, projectId: string): Promise<Person[]> {
  return membersHolding(ctx.db, projectId, 'ticket:transition');
}

/**
 * An assignee: `me`, display name, email address or id, among the project's assignable people.
 * The present assignee is always accepted; anyone else outside them is 422 `not_assignable`.
 */
export async function resolveAssignee(
  ctx: Context,
  given: string,
  project: { id: string; key: string },
  currentAssigneeId: string | null,
  pointer: string,
): Promise<Person> {
  const assignable = await assignablePeople(ctx, project.id);
  let found: Person | undefined;
  if (normalizeName(given) === 'me') found = { id: ctx.actor.memberId, name: ctx.actor.name };
  else [found] = await membersNamed(ctx, given, true);
  if (!found) {
    return resolveName(assignable, given, { pointer, what: 'person', names: (m) => [m.name, m.id], display: (m) => m.name });
  }
  const person = found;
  if (person.id !== currentAssigneeId && !assignable.some((m) => m.id === person.id)) {
    throw new ApiError('not_assignable', `${pointer}: ${person.name} cannot be assigned tickets in ${project.key}; assignable people are ${assignable.map((m) => `"${m.name}"`).join(', ') || 'none'}`);
  }
  return person;
}

/** Active members by username, for `@username` mentions. */
export async function membersByUsername(ctx: Context, usernames: readonly string[]): Promise<string[]> {
  if (usernames.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('members')
    .select('id')
    .where('active', '=', true)
    .where((eb) => eb(eb.fn('lower', ['username']), 'in', [...usernames]))
    .execute();
  return rows.map((r) => r.id);
}
