import type { Kysely } from 'kysely';
import type { DB } from '../../src/storage/schema.ts';
import type { Target } from '../lib/targets.ts';

/** What the service child tells the scenarios about the workspace it prepared. */
export interface BenchEnv {
  /** A write token of the acting member. */
  token: string;
  memberId: string;
  /** Extra values scenarios' seed() returned (ticket keys, board ids, …). */
  [name: string]: string;
}

export interface BenchRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path from the service root, e.g. `/api/v1/me`. */
  path: string;
  body?: unknown;
  /** Bodies sent in turn instead of `body`, one per request (a create into each project in turn). */
  bodies?: unknown[];
  /** Paths sent in turn instead of `path`, one per request (a write on each of many tickets in turn). */
  paths?: string[];
  headers?: Record<string, string>;
}

/**
 * One load scenario: one file in bench/scenarios/ exports `scenarios: Scenario[]`; bench/run.ts
 * finds every file there, so adding a scenario never touches the runner.
 */
export interface Scenario {
  /** Shown in the results, e.g. `GET /api/v1/me`. */
  name: string;
  /** Runs in the service process once, before it listens; returns values for BenchEnv. */
  seed?(db: Kysely<DB>, env: BenchEnv): Promise<Record<string, string>>;
  /** The request the load sends to Atrium. */
  request(env: BenchEnv): BenchRequest;
  /**
   * The same single SQL read as a bare Fastify route with no auth, for the Atrium/baseline ratio;
   * left out where no fair baseline exists.
   */
  baseline?(db: Kysely<DB>, env: BenchEnv): Promise<unknown>;
  /** What the scenario is held to (ADR 0046), shown beside its figures in bench/RESULTS.md. */
  target?: Target;
}
