import { readSettings, SETTING_SWITCHES, setSwitch, switchAuditEntry, type WorkspaceSettings, type SettingSwitch } from '../core/settings.ts';
import { oneOf, parseOptions } from './args.ts';
import { defineCommand } from './command.ts';
import { UsageError } from './errors.ts';
import { auditCliChange, recordCliChange, WORKSPACE_ENTITY_ID } from './history.ts';

function currentValue(settings: WorkspaceSettings, name: SettingSwitch): boolean {
  if (name === 'rest_api') return settings.restApi;
  if (name === 'mcp') return settings.mcp;
  return settings.modules[name];
}

const LABELS: Record<SettingSwitch, string> = {
  rest_api: 'the REST API',
  mcp: 'the MCP server',
  boards: 'the boards module',
  sprints: 'the sprints module',
  helpdesk: 'the helpdesk module',
  knowledge: 'the knowledge base module',
  time: 'the time tracking module',
  crm: 'the CRM module',
};

export const settingsSet = defineCommand({
  name: 'settings set',
  parse(argv) {
    const { positionals } = parseOptions('settings set', argv, {}, 2);
    const [name, value] = positionals;
    if (name === undefined || value === undefined) {
      throw new UsageError(`settings set: give a switch and on or off, e.g. "atrium settings set rest_api on"`);
    }
    return {
      name: oneOf('settings set', 'the switch', name, SETTING_SWITCHES),
      on: oneOf('settings set', 'the value', value, ['on', 'off'] as const) === 'on',
    };
  },
  // Requests read the switches with the token, so the running server obeys from its next request.
  run: (db, args) =>
    db.transaction().execute(async (trx) => {
      const before = currentValue(await readSettings(trx), args.name);
      const state = args.on ? 'on' : 'off';
      if (before === args.on) return `${LABELS[args.name]} was already ${state}`;
      await setSwitch(trx, args.name, args.on);
      await auditCliChange(trx, switchAuditEntry(args.name, args.on));
      await recordCliChange(trx, {
        entityType: 'workspace',
        entityId: WORKSPACE_ENTITY_ID,
        kind: 'settings_changed',
        changes: [{ field: args.name, from: before, to: args.on }],
      });
      return `switched ${LABELS[args.name]} ${state}`;
    }),
});
