import type { Context } from '../../core/context.ts';
import { ApiError } from '../../core/errors.ts';
import { normalizeName, resolveName } from '../../core/names.ts';
import { membersNamed } from '../../core/people.ts';
import type { Person } from '../../core/shapes.ts';
import { membersHolding } from '../../policy/ability.ts';

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
    throw new ApiError(
      'not_assignable',
      `${pointer}: ${person.name} cannot be assigned tickets in ${project.key}; assignable people are ${assignable.map((m) => `"${m.name}"`).join(', ') || 'none'}`,
    );
  }
  return person;
}
