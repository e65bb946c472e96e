import type { Kysely } from 'kysely';
import type { WorkspaceSettings } from '../core/settings.ts';
import { crmOpenTo } from '../modules/crm/index.ts';
import type { DB } from '../storage/schema.ts';

/** The parts of the site the header names; a page says which it belongs to. */
export type Section =
  | 'home'
  | 'tickets'
  | 'boards'
  | 'knowledge'
  | 'time'
  | 'crm'
  | 'notifications'
  | 'agents'
  | 'activity'
  | 'settings'
  | 'audit';

export interface NavItem {
  section: Section;
  label: string;
  href: string;
}

/** A module of the header: whether the member may use it, read from the workspace's switches and the module's own rule. */
export type ModuleSection = 'boards' | 'knowledge' | 'time' | 'crm';

const LANDINGS: Record<ModuleSection, { label: string; href: string }> = {
  boards: { label: 'Boards', href: '/boards' },
  knowledge: { label: 'Knowledge base', href: '/knowledge' },
  time: { label: 'Time', href: '/time' },
  crm: { label: 'CRM', href: '/crm' },
};

/**
 * The modules the member may use, as the header lists them: those switched on, and — for the
 * CRM, whose roles are its own (spec 5.6) — open to the member. Boards, the knowledge base and
 * time are open to every member while on: what each shows is what the member may see there.
 * The helpdesk has no link of its own: its pages hang off its projects (their request types).
 */
export async function usableModules(
  db: Kysely<DB>,
  settings: WorkspaceSettings,
  member: { memberId: string; isAdmin: boolean },
): Promise<Set<ModuleSection>> {
  const usable = new Set<ModuleSection>();
  if (settings.modules.boards) usable.add('boards');
  if (settings.modules.knowledge) usable.add('knowledge');
  if (settings.modules.time) usable.add('time');
  if (settings.modules.crm && (await crmOpenTo(db, member))) usable.add('crm');
  return usable;
}

export function navigation(usable: ReadonlySet<ModuleSection>): NavItem[] {
  // ticket search belongs to no switchable module: every member may search the tickets they can see
  const items: NavItem[] = [
    { section: 'home', label: 'Projects', href: '/' },
    { section: 'tickets', label: 'Tickets', href: '/tickets' },
  ];
  for (const section of ['boards', 'knowledge', 'time', 'crm'] as const) {
    if (usable.has(section)) items.push({ section, ...LANDINGS[section] });
  }
  return items;
}
