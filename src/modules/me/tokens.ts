import { sql } from 'kysely';
import { Type, type Static } from 'typebox';
import { createPersonalToken, revokeToken, TOKEN_LIFETIMES } from '../../auth/personal-tokens.ts';
import { invalid, notFound } from '../../core/errors.ts';
import { defineOperation } from '../../core/operation.ts';
import { StringEnum } from '../../core/schema-kit.ts';
import { revokeConnection } from '../../oauth/index.ts';

// A member's personal tokens and connected applications are made and revoked on their AI agents
// page (spec 5.1): web-only. A read-only workspace still takes them: reading through the API
// needs a token, and revoking only takes access away.

const LIFETIMES = [...TOKEN_LIFETIMES.map(String), 'none'] as const;

export const NewTokenBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, description: 'shown in history beside the member’s name' }),
  access: StringEnum(['read', 'write'], { description: '`read` changes nothing; `write` may do what the member may' }),
  lifetime: StringEnum(LIFETIMES, { description: 'days until it expires, or `none`' }),
});

export const NewToken = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  secret: Type.String({ description: 'shown this once: only its hash is kept' }),
});
export type NewToken = Static<typeof NewToken>;

/** What a revoke did: the token's or application's name, and false when it was revoked already. */
export const Revoked = Type.Object({ name: Type.String(), revoked: Type.Boolean() });
export type Revoked = Static<typeof Revoked>;

const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const createPersonalTokenOperation = defineOperation({
  name: 'create_personal_token',
  doors: 'web',
  takenWhileReadOnly: true,
  module: 'core',
  access: 'write',
  summary: 'Create a personal token',
  description: 'A personal token for the member, with a name, an access and a lifetime; its secret is answered this once.',
  body: NewTokenBody,
  response: NewToken,
  errors: ['invalid'],
  handler: async (ctx, input) => {
    const name = input.name.trim();
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a token name is one line without control characters
    if (name === '' || /[\u0000-\u001f\u007f]/.test(name)) throw invalid('/name', 'must be one line of text');
    const lifetimeDays = TOKEN_LIFETIMES.find((days) => String(days) === input.lifetime) ?? null;
    // the one way a personal token is made, here and by `atrium token create`
    const token = await createPersonalToken(ctx.db, {
      memberId: ctx.actor.memberId,
      name,
      access: input.access,
      lifetimeDays,
    });
    return { id: token.id, name, secret: token.secret };
  },
});

export const revokePersonalTokenOperation = defineOperation({
  name: 'revoke_personal_token',
  doors: 'web',
  takenWhileReadOnly: true,
  module: 'core',
  access: 'write',
  summary: 'Revoke a personal token',
  description: 'Revokes one of the member’s personal tokens at once; one revoked already stays so. Another member’s is not found.',
  params: IdParams,
  response: Revoked,
  errors: ['not_found'],
  handler: async (ctx, input) => {
    const token = await ctx.db
      .selectFrom('tokens')
      .select('name')
      .where('id', '=', input.id)
      .where('member_id', '=', ctx.actor.memberId)
      .where('kind', '=', 'personal')
      .executeTakeFirst();
    if (!token) throw notFound('Personal token');
    return { name: token.name, revoked: await revokeToken(ctx.db, ctx.actor.memberId, input.id) };
  },
});

export const revokeConnectionOperation = defineOperation({
  name: 'revoke_connection',
  doors: 'web',
  takenWhileReadOnly: true,
  module: 'core',
  access: 'write',
  summary: 'Revoke a connected application',
  description: 'Revokes the member’s consent to an application and every token it holds, at once. Another member’s is not found.',
  params: IdParams,
  response: Revoked,
  errors: ['not_found'],
  handler: async (ctx, input) => {
    const grant = await ctx.db
      .selectFrom('oauth_grants as g')
      .innerJoin('oauth_clients as c', 'c.client_id', 'g.client_id')
      .select(['c.client_name', sql<boolean>`g.revoked_at is null`.as('live')])
      .where('g.id', '=', input.id)
      .where('g.member_id', '=', ctx.actor.memberId)
      .executeTakeFirst();
    if (!grant) throw notFound('Connected application');
    if (grant.live) await revokeConnection(ctx.db, input.id);
    return { name: grant.client_name ?? 'the application', revoked: grant.live };
  },
});
