import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Ability, Access } from '../policy/ability.ts';
import type { Hooks } from './hooks.ts';
import type { DB } from '../storage/schema.ts';
import type { StatementGate } from '../storage/gated-kysely.ts';
import type { WorkspaceSettings } from './settings.ts';
import type { StructureStore } from './structure-cache.ts';
import type { TokenCheckValues } from './token-check.ts';

export interface Actor {
  memberId: string;
  name: string;
  isAdmin: boolean;
}

/**
 * The token a request came with: its name is what history shows beside the member's. A page's
 * action has none: the member acts in person (`kind: 'session'`, `name: null`).
 */
export interface Agent {
  tokenId: string;
  kind: 'personal' | 'oauth' | 'session';
  name: string | null;
  access: Access;
}

/** The part of a logger handlers use; Fastify's request logger and pino both fit. */
export type Log = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

export type Door = 'rest' | 'mcp' | 'web' | 'cli';

/**
 * A bearer token's check that the answer waits for (auth/bearer.ts, DeferredTokenCheck): a read
 * may carry it in its own statement (core/token-check.ts, tokenCheckColumn over these values), so
 * that one round trip does for both. A change that waits for it sends its statements through it
 * (the gate): none but one first read carrying it leaves before the verdict.
 */
export interface PendingTokenCheck extends StatementGate {
  /** What the check's column binds. */
  readonly values: TokenCheckValues;
  /** What that column held, from a row the statement returned. */
  offer(value: unknown): void;
}

/** Everything a handler may use. Handlers never see HTTP. */
export interface Context {
  /** The request's transaction: every read and write of one operation goes through it. */
  db: Kysely<DB>;
  actor: Actor;
  agent: Agent;
  ability: Ability;
  settings: WorkspaceSettings;
  /** Workspace structure cached by config_version for this app's database. */
  structure: StructureStore;
  /** The modules' extension points (core/hooks.ts), filled in by modules/index.ts. */
  hooks: Hooks;
  /** Whether notification emails go out (SMTP_URL is set): notifications are then queued for them. */
  mail: boolean;
  door: Door;
  publicUrl: string;
  requestId: string;
  log: Log;
  now(): Date;
  /** Set on a read whose token's check is still to be made: its main statement may carry it. */
  tokenCheck?: PendingTokenCheck;
  /**
   * Writes `item` with `write`: for a change of one statement that locks a row, joined with the
   * same writes of other requests waiting for that row (core/row-queue.ts, RowQueue.join), each
   * answered apart; for any other, at once in the request's transaction.
   */
  writeJoined<I, O>(write: RowWrite<I, O>, item: I): Promise<O>;
}

/** A write of several changes of one row in one statement (Context.writeJoined): one answer per item, in their order. */
export type RowWrite<I, O> = (db: Kysely<DB>, items: I[]) => Promise<O[]>;

/** A RowWrite of one item, with no other request's to join. */
export async function writeAlone<I, O>(db: Kysely<DB>, write: RowWrite<I, O>, item: I): Promise<O> {
  const [written] = await write(db, [item]);
  if (written === undefined) throw new Error('a row write answered nothing for its item');
  return written;
}
