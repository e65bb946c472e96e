import type { StructureReader } from '../../core/structure-cache.ts';
import { StructureKind } from '../../core/structure-cache.ts';
import { boardColumnRows, boardProjects, findBoardRow, type BoardProject, type BoardRow, type ColumnRow } from './repo.ts';

/** A board as the workspace file sets it: its row (with its owner's name), the projects it draws from, its columns. */
export interface BoardStructure {
  row: BoardRow;
  projects: readonly BoardProject[];
  columns: readonly ColumnRow[];
}

const boards = new StructureKind<BoardStructure | null>('boards');

/**
 * A board by number from the app's structure store. Boards, their projects and columns are
 * written only by the workspace file and the board's settings page (admin.ts), and members'
 * names by the file and the CLI, each of which bumps config_version; sprints are written through
 * the API and are never kept here.
 */
export function cachedBoard(ctx: StructureReader, number: number): Promise<BoardStructure | null> {
  return ctx.structure.get(ctx, boards, String(number), async () => {
    const row = await findBoardRow(ctx.db, number);
    if (!row) return null;
    const [projects, columns] = await Promise.all([boardProjects(ctx.db, [row]), boardColumnRows(ctx.db, row.id)]);
    return { row, projects: projects.get(row.id) ?? [], columns };
  });
}
