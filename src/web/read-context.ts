import { writeAlone, type Context } from '../core/context.ts';
import { readSettings } from '../core/settings.ts';
import { hooks } from '../modules/index.ts';
import { Ability } from '../policy/ability.ts';
import type { Session, WebDeps } from './session.ts';

/**
 * The logged-in member as a caller of the same service functions the API uses, for what a page
 * reads, with read access only: a page's change runs an operation (web/actions.ts). A read of
 * what the member could change (the transitions they may take) asks with `write`, the access a
 * page's operation runs with; it still writes nothing.
 */
export async function readContext(
  deps: WebDeps,
  session: Session,
  requestId: string,
  log: Context['log'],
  access: 'read' | 'write' = 'read',
): Promise<Context> {
  return {
    db: deps.db,
    actor: { memberId: session.memberId, name: session.name, isAdmin: session.isAdmin },
    // the member in person: no token, so history names no agent
    agent: { tokenId: `session:${session.hash}`, kind: 'session', name: null, access },
    ability: new Ability(deps.db, { memberId: session.memberId, isAdmin: session.isAdmin, access }),
    settings: await readSettings(deps.db),
    structure: deps.structure,
    hooks,
    // a read sends no mail
    mail: false,
    door: 'web',
    publicUrl: deps.publicUrl,
    requestId,
    log,
    now: deps.now,
    // a read writes no row
    writeJoined: (write, item) => writeAlone(deps.db, write, item),
  };
}
