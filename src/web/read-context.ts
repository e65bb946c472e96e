import { writeAlone, type Context } from '../core/context.ts';
import { readSettings } from '../core/settings.ts';
import { hooks } from '../modules/index.ts';
import { Ability } from '../policy/ability.ts';
import type { Session, WebDeps } from './session.ts';

/**
 * The logged-in member as a caller of the same service functions the API uses, for what a page
 * reads: read-only, or — for a change not yet an operation (a space's trash) — with the member's
 * own rights. A page's change runs an operation (web/actions.ts).
 */
export async function readContext(deps: WebDeps, session: Session, requestId: string, log: Context['log'], access: 'read' | 'write' = 'read'): Promise<Context> {
  return {
    db: deps.db,
    actor: { memberId: session.memberId, name: session.name, isAdmin: session.isAdmin },
    // the member in person: no token, so history names no agent
    agent: { tokenId: `session:${session.hash}`, kind: 'session', name: null, access },
    ability: new Ability(deps.db, { memberId: session.memberId, isAdmin: session.isAdmin, access }),
    settings: await readSettings(deps.db),
    structure: deps.structure,
    hooks,
    // the pages' changes notify nobody
    mail: false,
    door: 'web',
    publicUrl: deps.publicUrl,
    requestId,
    log,
    now: deps.now,
    // no page's change waits for a row with others
    writeJoined: (write, item) => writeAlone(deps.db, write, item),
  };
}
