import type { Context } from '../../core/context.ts';
import { forbidden, notFound } from '../../core/errors.ts';
import { boardProjects, findBoardRow, type BoardProject, type BoardRow } from './repo.ts';

/** A board with the projects it draws from: all of them, and those the member can see. */
export interface LoadedBoard extends BoardRow {
  projects: BoardProject[];
  visibleProjects: BoardProject[];
}

/** Boards show to members who can see at least one of their projects (spec 4.3). */
export async function withVisibleProjects(ctx: Context, boards: readonly BoardRow[]): Promise<LoadedBoard[]> {
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
  const row = await findBoardRow(ctx.db, number);
  const [board] = row ? await withVisibleProjects(ctx, [row]) : [];
  if (!board) throw notFound(`Board ${number}`);
  return board;
}

/**
 * Sprint management (spec 5.6): an installation administrator, or project:admin in every project
 * the board draws from — always with a write token.
 */
export async function canManageSprints(ctx: Context, board: LoadedBoard): Promise<boolean> {
  if (!ctx.ability.canWrite) return false;
  if (ctx.ability.isAdmin) return true;
  if (board.projects.length === 0) return false;
  for (const project of board.projects) {
    if (!(await ctx.ability.can('project:admin', project.id))) return false;
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

/** Reordering within a column and backlog moves need ticket:edit (spec 5.6). */
export async function requireTicketEdit(ctx: Context, ticket: { key: string; project_id: string; project_key: string }): Promise<void> {
  if (!(await ctx.ability.can('ticket:edit', ticket.project_id))) {
    throw forbidden(`You may not rank ${ticket.key} in project ${ticket.project_key} (needs ticket:edit)`);
  }
}
