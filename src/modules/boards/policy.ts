import type { Context } from '../../core/context.ts';
import { forbidden, notFound } from '../../core/errors.ts';
import type { Permission } from '../../policy/permissions.ts';
import { INT32_MAX } from '../../core/schema-kit.ts';
import { boardProjects, type BoardProject, type BoardRow, type ColumnRow } from './repo.ts';
import { cachedBoard } from './structure.ts';

/**
 * Spec 5.6 for boards, as a table: what each action needs, in which of the board's projects.
 * Moving a card is a ticket action (tickets' TICKET_POLICY: `transition` across columns, `rank`
 * within one and in the backlog), asked of the card's own project.
 */
export const BOARD_POLICY = {
  /** A board the member cannot see in any project is 404, like one that does not exist. */
  view: { needs: 'project:view', in: 'any', writeToken: false },
  /** Sprint management: installation administrators, or project:admin in every project, always with a write token. */
  manage_sprints: { needs: 'project:admin', in: 'every', writeToken: true },
} as const satisfies Record<string, { needs: Permission; in: 'any' | 'every'; writeToken: boolean }>;

/** A board with the projects it draws from: all of them, and those the member can see. */
export interface VisibleBoard extends BoardRow {
  projects: readonly BoardProject[];
  visibleProjects: readonly BoardProject[];
}

/** One board as a request about it sees it: with its columns too. */
export interface LoadedBoard extends VisibleBoard {
  columns: readonly ColumnRow[];
}

/** Boards show to members who can see at least one of their projects (spec 4.3). */
export async function withVisibleProjects(ctx: Context, boards: readonly BoardRow[]): Promise<VisibleBoard[]> {
  const [projects, visible] = await Promise.all([boardProjects(ctx.db, boards), ctx.ability.visibleProjectIds()]);
  return boards
    .map((board) => {
      const all = projects.get(board.id) ?? [];
      return { ...board, projects: all, visibleProjects: all.filter((p) => visible === null || visible.has(p.id)) };
    })
    .filter((board) => board.visibleProjects.length > 0);
}

/** A board by number; one drawing from no project the member can see is 404, like one that does not exist. */
export async function loadVisibleBoard(ctx: Context, number: number): Promise<LoadedBoard> {
  // a number no board can have (the column is a 32-bit integer) names nothing: 404, like any other
  if (!Number.isSafeInteger(number) || number < 1 || number > INT32_MAX) throw notFound(`Board ${number}`);
  const [found, visible] = await Promise.all([cachedBoard(ctx, number), ctx.ability.visibleProjectIds()]);
  const visibleProjects = found ? found.projects.filter((p) => visible === null || visible.has(p.id)) : [];
  if (!found || visibleProjects.length === 0) throw notFound(`Board ${number}`);
  return { ...found.row, projects: found.projects, visibleProjects, columns: found.columns };
}

/**
 * Sprint management (spec 5.6): an installation administrator, or project:admin in every project
 * the board draws from — always with a write token.
 */
export async function canManageSprints(ctx: Context, board: LoadedBoard): Promise<boolean> {
  const rule = BOARD_POLICY.manage_sprints;
  if (rule.writeToken && !ctx.ability.canWrite) return false;
  if (ctx.ability.isAdmin) return true;
  if (board.projects.length === 0) return false;
  for (const project of board.projects) {
    if (!(await ctx.ability.memberPermissions(project.id)).has(rule.needs)) return false;
  }
  return true;
}

export async function requireSprintManagement(ctx: Context, board: LoadedBoard): Promise<void> {
  if (!(await canManageSprints(ctx, board))) {
    throw forbidden(
      `You may not manage the sprints of board ${board.number} (needs installation administrator, or project:admin in every project the board draws from)`,
    );
  }
}
