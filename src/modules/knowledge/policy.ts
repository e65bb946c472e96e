import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { forbidden } from '../../core/errors.ts';
import type { Permission } from '../../policy/permissions.ts';
import type { GrantLevel } from './tables.ts';

/**
 * Spec 5.6 for the knowledge base, as a table: a space's level for a member is the highest of
 * its project's roles (knowledge:read, :edit, :manage in that project), its own grants (members,
 * groups, everyone — declared in the workspace file), and ownership of a personal space.
 * Administrators manage every space. A read token keeps `read` at most.
 */
export const KNOWLEDGE_POLICY = {
  read: { needs: 'knowledge:read', level: 1 },
  edit: { needs: 'knowledge:edit', level: 2 },
  manage: { needs: 'knowledge:manage', level: 3 },
} as const satisfies Record<GrantLevel, { needs: Permission; level: number }>;

export type Level = GrantLevel | 'none';
const LEVELS: readonly Level[] = ['none', 'read', 'edit', 'manage'];
const rank = (level: Level) => LEVELS.indexOf(level);
const higher = (a: Level, b: Level): Level => (rank(a) >= rank(b) ? a : b);

export interface SpaceRow {
  id: string;
  key: string;
  name: string;
  kind: 'global' | 'personal';
  owner_id: string | null;
  project_id: string | null;
  project_key: string | null;
  source: 'native' | 'external_wiki' | 'git' | 'import';
  home_page: string | null;
}

/**
 * Each space's levels: `member`, what the member holds (it decides what they see — drafts and
 * the trash are the managers' — whatever the token); `act`, what this request may do (a read
 * token keeps `read` at most, spec 5.3).
 */
export interface SpaceAccess {
  member: Level;
  act: Level;
}

export async function spaceLevels(ctx: Context, spaces: readonly SpaceRow[]): Promise<Map<string, SpaceAccess>> {
  const levels = new Map<string, SpaceAccess>();
  if (spaces.length === 0) return levels;
  const { rows: grants } = await sql<{ space_id: string; level: GrantLevel }>`/*prepare*/
    select g.space_id, g.level from space_grants g
    where g.space_id = any(${spaces.map((s) => s.id)}::uuid[])
      and (g.everyone or g.member_id = ${ctx.actor.memberId}
           or g.group_id in (select group_id from group_members where member_id = ${ctx.actor.memberId}))
  `.execute(ctx.db);
  for (const space of spaces) {
    let level: Level = 'none';
    if (ctx.ability.isAdmin || space.owner_id === ctx.actor.memberId) level = 'manage';
    if (space.project_id !== null && level !== 'manage') {
      const held = await ctx.ability.memberPermissions(space.project_id);
      for (const [name, rule] of Object.entries(KNOWLEDGE_POLICY)) if (held.has(rule.needs)) level = higher(level, name as GrantLevel);
    }
    for (const grant of grants) if (grant.space_id === space.id) level = higher(level, grant.level);
    levels.set(space.id, { member: level, act: !ctx.ability.canWrite && level !== 'none' ? 'read' : level });
  }
  return levels;
}

/** Whether the member (with a write token) could edit or manage: what `can_edit`/`can_manage` say. */
export const mayEdit = (level: Level) => rank(level) >= rank('edit');
export const mayManage = (level: Level) => level === 'manage';

/** Refuses a change the level does not allow (403 naming what it needs). */
export function requireLevel(level: Level, wanted: 'edit' | 'manage', space: SpaceRow, ctx: Context): void {
  if (rank(level) >= rank(wanted)) return;
  const rule = KNOWLEDGE_POLICY[wanted];
  const why = !ctx.ability.canWrite ? 'this token can only read' : `it needs ${rule.needs} in space ${space.key}`;
  throw forbidden(`You may not ${wanted === 'edit' ? 'write pages' : 'manage pages'} in space ${space.key}: ${why}`);
}
