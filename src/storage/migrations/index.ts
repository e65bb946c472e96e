import type { Migration } from 'kysely';
import * as platform from './0001-platform.ts';

/** Every migration in order; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '0001-platform': platform,
};
