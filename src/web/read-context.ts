import type { Context } from '../core/context.ts';
import { readSettings } from '../core/settings.ts';
import { hooks } from '../modules/index.ts';
import { Ability } from '../policy/ability.ts';
import type { Session, WebDeps } from './session.ts';

/** The logged-in member as a read-only caller of the same service functions the API uses. */
export async function readContext(deps: WebDeps, session: Session, requestId: string, log: Context['log']): Promise<Context> {
  return {
    db: deps.db,
    actor: { memberId: session.memberId, name: session.name, isAdmin: session.isAdmin },
    agent: { tokenId: `session:${session.hash}`, kind: 'personal', name: 'browser', access: 'read' },
    ability: new Ability(deps.db, { memberId: session.memberId, isAdmin: session.isAdmin, access: 'read' }),
    settings: await readSettings(deps.db),
    structure: deps.structure,
    hooks,
    // the pages only read
    mail: false,
    door: 'rest',
    publicUrl: deps.publicUrl,
    requestId,
    log,
    now: deps.now,
  };
}
