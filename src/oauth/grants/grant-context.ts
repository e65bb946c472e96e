import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';
import type { Client } from '../clients.ts';
import type { RawParameters } from '../checks/single-parameters.ts';

export interface GrantContext {
  db: Kysely<DB>;
  publicUrl: string;
  now(): Date;
  client: Client;
  params: RawParameters;
  log: { warn(object: object, message: string): void };
}

/** Thrown inside a grant's transaction when another request won the race for the same code or token. */
export class LostRace extends Error {}
