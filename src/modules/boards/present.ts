import { toTimestamp } from '../../core/time.ts';
import type { VisibleBoard } from './policy.ts';
import type { SprintRow } from './repo.ts';
import type { Board, Sprint } from './schemas.ts';

/** The read-only board page of the service. */
export function boardUrl(publicUrl: string, number: number): string {
  return `${publicUrl.replace(/\/+$/, '')}/boards/${number}`;
}

export function presentBoard(board: VisibleBoard, publicUrl: string): Board {
  return {
    number: board.number,
    name: board.name,
    kind: board.kind,
    projects: board.visibleProjects.map((p) => p.key),
    owner: board.owner_id && board.owner_name ? { id: board.owner_id, name: board.owner_name } : null,
    url: boardUrl(publicUrl, board.number),
  };
}

export function presentSprint(row: SprintRow): Sprint {
  return {
    id: row.id,
    name: row.name,
    goal: row.goal,
    state: row.state,
    start_at: toTimestamp(row.start_at),
    end_at: toTimestamp(row.end_at),
    completed_at: toTimestamp(row.completed_at),
  };
}
