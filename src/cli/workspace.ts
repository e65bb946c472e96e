import fs from 'node:fs/promises';
import path from 'node:path';
import type { ApplyReport } from '../workspace/apply.ts';
import { parseWorkspaceYaml } from '../workspace/parse.ts';
import { parseOptions } from './args.ts';
import { defineCommand } from './command.ts';
import { CommandError, UsageError } from './errors.ts';
import { auditCliChange } from './history.ts';

async function readWorkspaceFile(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new CommandError(`workspace apply: cannot read ${file}: ${reason}`);
  }
}

/** `members: 2 created, 1 updated; projects: 1 created` */
function describeReport(report: ApplyReport): string {
  if (!report.changed) return 'nothing changed; the workspace already matches the file';
  return report.changes
    .map((c) => {
      const counts = (['created', 'updated', 'deleted'] as const).filter((k) => c[k] > 0).map((k) => `${c[k]} ${k}`);
      return `${c.table}: ${counts.join(', ')}`;
    })
    .join('; ');
}

export const workspaceApply = defineCommand({
  name: 'workspace apply',
  changesWorkspace: true,
  parse(argv) {
    const { positionals } = parseOptions('workspace apply', argv, {}, 1);
    const file = positionals[0];
    if (!file) throw new UsageError('workspace apply: give the workspace file, e.g. "atrium workspace apply workspace.yaml"');
    return { file };
  },
  // The server may run in another folder: it is handed the absolute path of a file that exists.
  async complete(_argv, args) {
    const file = path.resolve(args.file);
    await readWorkspaceFile(file);
    return [file];
  },
  async run(db, args) {
    const file = path.resolve(args.file);
    const value = parseWorkspaceYaml(await readWorkspaceFile(file), path.basename(file));
    // One transaction: a mistake anywhere in the file applies nothing, and the audit entry goes with the change.
    // Loaded only here: the workspace engine brings every module with it.
    const { applyWorkspace } = await import('../workspace/apply.ts');
    const report = await db.transaction().execute(async (trx) => {
      const applied = await applyWorkspace(trx, value);
      if (applied.changed) {
        await auditCliChange(trx, {
          action: 'workspace.applied',
          targetType: 'workspace_file',
          targetId: null,
          target: `workspace file ${path.basename(file)}`,
          changes: applied.changes.map((c) => ({
            field: c.table,
            from: null,
            to: { created: c.created, updated: c.updated, deleted: c.deleted },
          })),
        });
      }
      return applied;
    });
    return `applied ${path.basename(file)}: ${describeReport(report)}`;
  },
});
