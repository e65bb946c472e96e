import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { DB, WorkspaceSettingsTable } from '../storage/schema.ts';
import type { AuditEntry } from './audit.ts';

export const MODULE_SWITCHES = ['boards', 'sprints', 'helpdesk', 'knowledge', 'time', 'crm'] as const;
export type SwitchableModule = (typeof MODULE_SWITCHES)[number];
/** The administrator's switches: the doors and the modules (the settings page and the CLI). */
export const SETTING_SWITCHES = ['rest_api', 'mcp', ...MODULE_SWITCHES] as const;
export type SettingSwitch = (typeof SETTING_SWITCHES)[number];
/** The operator's switch (spec 5.6), turned only with the CLI: a read-only workspace refuses every change. */
export const READ_ONLY_SWITCH = 'read_only';
/** What every change is told in a read-only workspace, whichever way it came (API, pages, CLI). */
export const READ_ONLY_MESSAGE = 'This workspace is read-only: its operator has stopped every change to it; everything can still be read';
/** Every switch the CLI's `settings set` turns. */
export const WORKSPACE_SWITCHES = [...SETTING_SWITCHES, READ_ONLY_SWITCH] as const;
export type WorkspaceSwitch = (typeof WORKSPACE_SWITCHES)[number];

export const MODULE_LABELS: Record<SwitchableModule, string> = {
  boards: 'boards',
  sprints: 'sprints',
  helpdesk: 'helpdesk',
  knowledge: 'knowledge base',
  time: 'time tracking',
  crm: 'CRM',
};

/** A module that lives on another: switched off with it (a sprint is a sprint of a board). */
export const MODULE_HOSTS: Partial<Record<SwitchableModule, SwitchableModule>> = { sprints: 'boards' };

/** Why a module cannot be used now (it, or the module it lives on, is switched off), or null when it can. */
export function moduleOffReason(module: SwitchableModule, settings: WorkspaceSettings): string | null {
  if (!settings.modules[module]) return `The ${MODULE_LABELS[module]} module is switched off in this workspace`;
  const host = MODULE_HOSTS[module];
  if (host && !settings.modules[host]) {
    const off = `The ${MODULE_LABELS[host]} module is switched off in this workspace`;
    return `${off}, and ${MODULE_LABELS[module]} live on it`;
  }
  return null;
}

/**
 * SQL: the module (and the module it lives on) is switched on now, read by the statement, for
 * what is carried to a person later than any request (a reminder, an email, a live event).
 */
export function moduleOnSql(module: SwitchableModule): RawBuilder<boolean> {
  const host = MODULE_HOSTS[module];
  const switches = [module, ...(host ? [host] : [])].map((name) => sql.ref(`vis_ws.${switchColumn(name)}`));
  const on = sql.join(switches, sql` and `);
  return sql<boolean>`exists (select 1 from workspace_settings vis_ws where vis_ws.id = 1 and ${on})`;
}

export interface WorkspaceSettings {
  name: string;
  restApi: boolean;
  mcp: boolean;
  modules: Record<SwitchableModule, boolean>;
  /** Made read-only by the operator: every change is refused (spec 5.6). */
  readOnly: boolean;
  defaultPriority: string | null;
  /** The largest file an attachment may be, in bytes: the administrator's setting (25 MiB unless changed). */
  attachmentMaxBytes: number;
  configVersion: number;
}

export const settingsColumns = [
  'name',
  'rest_api',
  'mcp',
  'module_boards',
  'module_sprints',
  'module_helpdesk',
  'module_knowledge',
  'module_time',
  'module_crm',
  'read_only',
  'default_priority',
  'attachment_max_bytes',
  'config_version',
] as const;

export type SettingsRow = Pick<Selectable<WorkspaceSettingsTable>, (typeof settingsColumns)[number]>;

export function settingsFromRow(row: SettingsRow): WorkspaceSettings {
  return {
    name: row.name,
    restApi: row.rest_api,
    mcp: row.mcp,
    modules: {
      boards: row.module_boards,
      sprints: row.module_sprints,
      helpdesk: row.module_helpdesk,
      knowledge: row.module_knowledge,
      time: row.module_time,
      crm: row.module_crm,
    },
    readOnly: row.read_only,
    defaultPriority: row.default_priority,
    attachmentMaxBytes: row.attachment_max_bytes,
    configVersion: Number(row.config_version),
  };
}

export async function readSettings(db: Kysely<DB>): Promise<WorkspaceSettings> {
  const row = await db.selectFrom('workspace_settings').select(settingsColumns).where('id', '=', 1).executeTakeFirstOrThrow();
  return settingsFromRow(row);
}

export function switchColumn(name: WorkspaceSwitch) {
  return (name === 'rest_api' || name === 'mcp' || name === READ_ONLY_SWITCH ? name : `module_${name}`) as
    | 'rest_api'
    | 'mcp'
    | typeof READ_ONLY_SWITCH
    | `module_${SwitchableModule}`;
}

/** Whether a switch is on in these settings. */
export function switchIsOn(settings: WorkspaceSettings, name: WorkspaceSwitch): boolean {
  if (name === 'rest_api') return settings.restApi;
  if (name === 'mcp') return settings.mcp;
  if (name === READ_ONLY_SWITCH) return settings.readOnly;
  return settings.modules[name];
}

/** A switch change as the workspace audit log records it. */
export function switchAuditEntry(name: WorkspaceSwitch, on: boolean): AuditEntry {
  return {
    action: 'setting.changed',
    targetType: 'setting',
    targetId: null,
    target: `workspace setting ${name}`,
    changes: [{ field: name, from: !on, to: on }],
  };
}

/** Turns one switch; bumps config_version so every process sees the change on its next request. */
export async function setSwitch(db: Kysely<DB>, name: WorkspaceSwitch, on: boolean): Promise<void> {
  await db
    .updateTable('workspace_settings')
    .set((eb) => ({
      [switchColumn(name)]: on,
      config_version: eb('config_version', '+', 1),
      updated_at: new Date().toISOString(),
    }))
    .where('id', '=', 1)
    .execute();
}
