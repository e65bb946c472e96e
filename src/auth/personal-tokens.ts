import { sql, type Kysely } from 'kysely';
import type { Access } from '../policy/ability.ts';
import type { DB } from '../storage/schema.ts';
import { hashSecret, newSecret, TOKEN_PREFIXES } from './token-format.ts';

export const TOKEN_LIFETIMES = [30, 90, 365] as const;
export type TokenLifetime = (typeof TOKEN_LIFETIMES)[number] | null;
/** Chosen beforehand on the AI agents page and taken by `atrium token create` without --expires: one default for both. */
export const DEFAULT_TOKEN_LIFETIME: TokenLifetime = 90;

export interface NewPersonalToken {
  memberId: string;
  name: string;
  access: Access;
  /** Days until it expires (30, 90 or 365), or null for no expiry (spec 5.1). */
  lifetimeDays: TokenLifetime;
}

/** Mints a personal token; the secret is returned once and only its hash is kept. */
export async function createPersonalToken(db: Kysely<DB>, token: NewPersonalToken): Promise<{ id: string; secret: string }> {
  const secret = newSecret(TOKEN_PREFIXES.personal);
  const row = await db
    .insertInto('tokens')
    .values({
      member_id: token.memberId,
      kind: 'personal',
      name: token.name,
      access: token.access,
      token_hash: hashSecret(secret),
      expires_at: token.lifetimeDays === null ? null : sql<string>`now() + make_interval(days => ${token.lifetimeDays})`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, secret };
}

/** Revokes a member's token at once; true when there was one to revoke. */
export async function revokeToken(db: Kysely<DB>, memberId: string, tokenId: string): Promise<boolean> {
  const result = await db
    .updateTable('tokens')
    .set({ revoked_at: sql<string>`now()` })
    .where('id', '=', tokenId)
    .where('member_id', '=', memberId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
