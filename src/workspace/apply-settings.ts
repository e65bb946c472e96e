import { normalizeName } from '../core/names.ts';
import { MODULE_SWITCHES, switchColumn } from '../core/settings.ts';
import { requireName, requireUnique } from './check-names.ts';
import type { ApplyContext, CheckContext, WorkspaceSectionHandler } from './context.ts';
import type { StoredRow } from './writer.ts';

function check(ctx: CheckContext): void {
  const section = ctx.file.workspace;
  if (!section) return;
  if (section.priorities) requireUnique(section.priorities, (p) => p, ['workspace', 'priorities'], 'priority');
  if (section.default_priority !== undefined && section.priorities) {
    requireName(section.priorities, section.default_priority, 'workspace.default_priority', 'priority');
  }
}

/** Only the settings the file states are written; the rest stay as they are. */
async function apply(ctx: ApplyContext): Promise<void> {
  const section = ctx.file.workspace;
  let row = await ctx.db.selectFrom('workspace_settings').selectAll().where('id', '=', 1).executeTakeFirst();
  if (!row) {
    await ctx.db.insertInto('workspace_settings').values({ id: 1, default_priority: null }).execute();
    ctx.writer.log.note('workspace_settings', 'created');
    row = await ctx.db.selectFrom('workspace_settings').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
  }
  if (!section) return;
  const wanted: Record<string, unknown> = {
    name: section.name,
    rest_api: section.rest_api,
    mcp: section.mcp,
    // The priority as the file spells it in `priorities`, whatever the case it was named in.
    default_priority:
      section.default_priority === undefined
        ? undefined
        : (section.priorities?.find((p) => normalizeName(p) === normalizeName(section.default_priority!)) ??
          section.default_priority.trim()),
  };
  for (const module of MODULE_SWITCHES) wanted[switchColumn(module)] = section.modules?.[module];
  await ctx.writer.save('workspace_settings', row as unknown as StoredRow, wanted, { touch: true });
}

export const settingsSection: WorkspaceSectionHandler = { name: 'workspace', check, apply };
