import type { Kysely } from 'kysely';
import { workspaceEngine } from '../modules/index.ts';
import type { DB } from '../storage/schema.ts';
import type { ApplyReport } from './engine.ts';

export type { ApplyReport } from './engine.ts';

/** Applies a parsed workspace file with every module's sections (WorkspaceEngine.apply). */
export function applyWorkspace(db: Kysely<DB>, file: unknown): Promise<ApplyReport> {
  return workspaceEngine.apply(db, file);
}
