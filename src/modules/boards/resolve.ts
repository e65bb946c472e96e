import { ApiError } from '../../core/errors.ts';
import { candidateList, normalizeName, refuseBlank } from '../../core/names.ts';
import type { ColumnRow, SprintRow } from './repo.ts';

const columnLabel = (column: ColumnRow) => column.name ?? `#${column.position}`;

/** A column by name (case-insensitive) or index from 0; anything else is 422 `no_such_column`. */
export function resolveColumn(columns: readonly ColumnRow[], given: string | number, boardNumber: number): ColumnRow {
  const found =
    typeof given === 'number'
      ? columns.find((c) => c.position === given)
      : (columns.find((c) => c.name !== null && normalizeName(c.name) === normalizeName(given)) ??
        (/^\d+$/.test(given.trim()) ? columns.find((c) => c.position === Number(given.trim())) : undefined));
  if (found) return found;
  const shown = typeof given === 'number' ? String(given) : `"${given.trim()}"`;
  throw new ApiError(
    'no_such_column',
    `/column: board ${boardNumber} has no column ${shown}; its columns are ${columns.map((c) => `${c.position} ${columnLabel(c)}`).join(', ') || 'none'}`,
  );
}

export type SprintScope = 'any' | 'open';

/**
 * A sprint of the board by id or name (case-insensitive). `open` looks among future and active
 * sprints only. A miss is 422 `no_such_sprint` listing up to 25 names that would have matched.
 */
export function resolveSprint(
  sprints: readonly SprintRow[],
  given: string,
  pointer: string,
  scope: SprintScope,
  boardNumber: number,
): SprintRow {
  refuseBlank(given, pointer);
  const candidates = scope === 'open' ? sprints.filter((s) => s.state !== 'closed') : sprints;
  const wanted = normalizeName(given);
  const found = candidates.find((s) => s.id === wanted) ?? candidates.find((s) => normalizeName(s.name) === wanted);
  if (found) return found;
  const what = scope === 'open' ? 'open sprint' : 'sprint';
  throw new ApiError(
    'no_such_sprint',
    `${pointer}: board ${boardNumber} has no ${what} "${given.trim()}"; ${what}s are ${candidateList(
      given,
      candidates.map((s) => s.name),
    )}`,
  );
}

/** `backlog` names the backlog where a sprint could be named. */
export const isBacklog = (given: string) => normalizeName(given) === 'backlog';
