import { backup } from './backup.ts';
import type { DatabaseCommand } from './command.ts';
import { memberAdd, memberDeactivate, memberList, memberSetPassword } from './member.ts';
import { migrate } from './migrate.ts';
import { settingsSet } from './settings.ts';
import { tokenCreate, tokenList, tokenRevoke } from './token.ts';
import { workspaceApply } from './workspace.ts';

/** Every command that works on the database, by its full name; the control socket serves the same list. */
export const databaseCommands: ReadonlyMap<string, DatabaseCommand> = new Map(
  [
    migrate,
    workspaceApply,
    memberAdd,
    memberSetPassword,
    memberDeactivate,
    memberList,
    tokenCreate,
    tokenList,
    tokenRevoke,
    settingsSet,
    backup,
  ].map((c) => [c.name, c]),
);
