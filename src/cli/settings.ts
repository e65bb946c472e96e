import {
  READ_ONLY_SWITCH,
  readSettings,
  setSwitch,
  switchAuditEntry,
  switchIsOn,
  WORKSPACE_SWITCHES,
  type WorkspaceSwitch,
} from '../core/settings.ts';
import { oneOf, parseOptions } from './args.ts';
import { defineCommand } from './command.ts';
import { UsageError } from './errors.ts';
import { auditCliChange, recordCliChange, WORKSPACE_ENTITY_ID } from './history.ts';

const LABELS: Record<WorkspaceSwitch, string> = {
  rest_api: 'the REST API',
  mcp: 'the MCP server',
  boards: 'the boards module',
  sprints: 'the sprints module',
  helpdesk: 'the helpdesk module',
  knowledge: 'the knowledge base module',
  time: 'the time tracking module',
  crm: 'the CRM module',
  read_only: 'read-only',
};

/** What switching the workspace read-only means, said once it is done. */
const READ_ONLY_EFFECT = {
  on: ': every change is refused (API, MCP, pages, workspace file); reading and logging in go on',
  off: ': the workspace takes changes again',
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
      name: oneOf('settings set', 'the switch', name, WORKSPACE_SWITCHES),
      on: oneOf('settings set', 'the value', value, ['on', 'off'] as const) === 'on',
    };
  },
  // Requests read the switches with the token, so the running server obeys from its next request.
  run: (db, args) =>
    db.transaction().execute(async (trx) => {
      const before = switchIsOn(await readSettings(trx), args.name);
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
      const effect = args.name === READ_ONLY_SWITCH ? READ_ONLY_EFFECT[state] : '';
      return `switched ${LABELS[args.name]} ${state}${effect}`;
    }),
});
