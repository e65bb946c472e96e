import type { FastifyReply } from 'fastify';
import { readSettings } from '../core/settings.ts';
import { usableModules, type ModuleSection } from './navigation.ts';
import { memberErrorPage } from './respond.ts';
import type { Session, WebDeps } from './session.ts';

const NAMES: Record<ModuleSection, string> = { boards: 'Boards', knowledge: 'The knowledge base', time: 'Time tracking', crm: 'The CRM' };

/**
 * Whether the member may use a module's pages: it is on, and (the CRM) open to them. When not,
 * the friendly page says so — 404 for a module switched off, as its API answers it to nobody;
 * 403 for one the member holds no role in — and false is returned.
 */
export async function moduleOpen(reply: FastifyReply, deps: WebDeps, session: Session, section: ModuleSection): Promise<boolean> {
  const settings = await readSettings(deps.db);
  if ((await usableModules(deps.db, settings, session)).has(section)) return true;
  const on = section === 'boards' ? settings.modules.boards : settings.modules[section];
  if (!on) {
    await memberErrorPage(reply, deps, session, 404, `${NAMES[section]} is switched off in this workspace. An administrator can switch it on in Settings.`);
  } else {
    await memberErrorPage(reply, deps, session, 403, `${NAMES[section]} is open only to members with a CRM role. An administrator gives CRM roles in the workspace file.`);
  }
  return false;
}
