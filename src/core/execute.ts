import type { Kysely } from 'kysely';
import { Ability, type MemberAccess } from '../policy/ability.ts';
import { bothGates, gatedKysely } from '../storage/gated-kysely.ts';
import type { DB } from '../storage/schema.ts';
import type { Hooks } from './hooks.ts';
import { writeAlone, type Actor, type Agent, type Context, type Door, type Log, type PendingTokenCheck, type RowWrite } from './context.ts';
import { ApiError } from './errors.ts';
import { lineUpAfterLoss, makeAgainIfLost } from './lost-races.ts';
import type { Operation } from './operation.ts';
import { moduleOffReason, READ_ONLY_MESSAGE, type WorkspaceSettings } from './settings.ts';
import type { StructureStore } from './structure-cache.ts';
import { writesQueued, type RowQueue } from './row-queue.ts';

/** Who is asking: established by the bearer token before any operation runs. */
export interface Principal {
  actor: Actor;
  agent: Agent;
  settings: WorkspaceSettings;
  /** The member's grants and security levels, read with the token (so the request's Ability needs no query of its own). */
  held?: MemberAccess;
}

export interface Runtime {
  db: Kysely<DB>;
  structure: StructureStore;
  hooks: Hooks;
  mail: boolean;
  publicUrl: string;
  now(): Date;
  /** Changes of one row, let through a few at a time (an operation's `locksRow`). */
  rowQueue: RowQueue;
}

export interface Call {
  door: Door;
  requestId: string;
  log: Log;
  /** The token's check still to be made, for a read to carry (a change only with its `checkedByFirstRead`). */
  tokenCheck?: PendingTokenCheck;
}

/** The module switch of an operation, or null when it is on (or the operation has none). */
export function moduleSwitchedOff(op: Operation, settings: WorkspaceSettings): ApiError | null {
  if (op.module === 'core' || op.module === 'tickets') return null;
  const reason = moduleOffReason(op.module, settings);
  return reason === null ? null : new ApiError('feature_disabled', reason);
}

/** A change in a workspace its operator made read-only: refused whoever asks (spec 5.6), but those reading needs. */
export function workspaceReadOnly(op: Operation, settings: WorkspaceSettings): ApiError | null {
  if (op.access !== 'write' || !settings.readOnly || op.takenWhileReadOnly) return null;
  return new ApiError('forbidden', READ_ONLY_MESSAGE);
}

/** A read token on a change: refused whatever the request holds (spec 4: "refuses every change"). */
export function readTokenRefused(op: Operation, principal: Principal): ApiError | null {
  if (op.access === 'write' && principal.agent.access !== 'write') {
    return new ApiError('forbidden', 'This token has read access only; changes need a token with read and change access');
  }
  return null;
}

/**
 * Why this principal can never run this operation, whatever its input: the module is off, the
 * workspace is read-only, or the token reads only. Doors check it before validating input, so a
 * request that cannot succeed is told why rather than what is wrong with its body.
 */
export function admissionRefusal(op: Operation, principal: Principal): ApiError | null {
  const { settings } = principal;
  return moduleSwitchedOff(op, settings) ?? workspaceReadOnly(op, settings) ?? readTokenRefused(op, principal);
}

/**
 * Runs one operation for one principal, the same way for every door: module switch, read-only
 * workspace, token access, then the handler — in one transaction when it writes, so its history
 * entry commits with it (a write made of one statement is atomic alone and runs without one), made
 * again when it lost a race to another change (lost-races.ts).
 */
export async function runOperation(
  runtime: Runtime,
  op: Operation,
  principal: Principal,
  input: Record<string, unknown>,
  call: Call,
): Promise<unknown> {
  const refused = admissionRefusal(op, principal);
  if (refused) throw refused;
  const { tokenCheck } = call;
  // a read changes nothing for a token that turns out refused; a change sends nothing but its first
  // read until the check passes (the gate, auth/bearer.ts), and only one that declares that read
  const checkGate = tokenCheck && op.access !== 'read' ? tokenCheck : null;
  if (checkGate && !op.checkedByFirstRead) throw new Error(`${op.name} changes data and must not run before its token is checked`);
  // a change of one statement queues that statement only; any other, its whole handler (below)
  const rowGate = op.locksRow && op.oneStatement ? writesQueued(runtime.rowQueue, op.locksRow(input)) : null;
  const gate = checkGate && rowGate ? bothGates(checkGate, rowGate) : (checkGate ?? rowGate);
  const db = gate ? gatedKysely(runtime.db, gate) : runtime.db;
  const writeJoined = async <I, O>(db: Kysely<DB>, write: RowWrite<I, O>, item: I): Promise<O> => {
    if (!rowGate) return writeAlone(db, write, item);
    // the batch is written by another request's call, past this one's gates: the token's check
    // is settled here, so a refused token's change joins none
    if (checkGate) await checkGate.through(null, async () => undefined);
    return runtime.rowQueue.join(op.locksRow!(input), write, item, (items) => write(runtime.db, items));
  };
  const context = (db: Kysely<DB>): Context => ({
    db,
    actor: principal.actor,
    agent: principal.agent,
    ability: new Ability(
      db,
      { memberId: principal.actor.memberId, isAdmin: principal.actor.isAdmin, access: principal.agent.access },
      principal.held,
    ),
    settings: principal.settings,
    structure: runtime.structure,
    hooks: runtime.hooks,
    mail: runtime.mail,
    door: call.door,
    publicUrl: runtime.publicUrl,
    requestId: call.requestId,
    log: call.log,
    now: runtime.now,
    ...(tokenCheck ? { tokenCheck } : {}),
    writeJoined: (write, item) => writeJoined(db, write, item),
  });
  const change = (lostOn: string | null) =>
    op.oneStatement && lostOn === null
      ? op.handler(context(db), input)
      : db.transaction().execute(async (trx) => {
          if (lostOn !== null) await lineUpAfterLoss(trx, lostOn);
          return op.handler(context(trx), input);
        });
  // a change that lost a race to another is made again, and answers as if there had been none
  const run = () => (op.access === 'read' ? op.handler(context(db), input) : makeAgainIfLost(change));
  return op.locksRow && !rowGate ? runtime.rowQueue.run(op.locksRow(input), run) : run();
}
