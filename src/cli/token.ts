import { sql } from 'kysely';
import { createPersonalToken, DEFAULT_TOKEN_LIFETIME, type TokenLifetime } from '../auth/personal-tokens.ts';
import { candidateList, normalizeName } from '../core/names.ts';
import { oneOf, parseOptions, required } from './args.ts';
import { defineCommand } from './command.ts';
import { CommandError } from './errors.ts';
import { describeMember, findMember } from './find-member.ts';
import { formatTable, formatWhen } from './table.ts';

const LIFETIMES = { '30': 30, '90': 90, '365': 365, never: null } as const satisfies Record<string, TokenLifetime>;
type LifetimeName = keyof typeof LIFETIMES;
// The page's default too (auth/personal-tokens.ts), so a token lives as long wherever it is made.
const DEFAULT_LIFETIME = String(DEFAULT_TOKEN_LIFETIME ?? 'never') as LifetimeName;

export const tokenCreate = defineCommand({
  name: 'token create',
  parse(argv) {
    const { values } = parseOptions('token create', argv, {
      member: { type: 'string' },
      name: { type: 'string' },
      access: { type: 'string' },
      expires: { type: 'string', default: DEFAULT_LIFETIME },
    });
    const lifetime = oneOf('token create', '--expires', values.expires ?? DEFAULT_LIFETIME, Object.keys(LIFETIMES) as LifetimeName[]);
    return {
      member: required('token create', 'member', values.member),
      name: required('token create', 'name', values.name),
      access: oneOf('token create', '--access', required('token create', 'access', values.access), ['read', 'write'] as const),
      lifetimeDays: LIFETIMES[lifetime],
    };
  },
  async run(db, args) {
    const member = await findMember(db, args.member);
    // spec 5.5: such a token would be refused at once, so it is not made.
    if (!member.active) throw new CommandError(`token create: ${describeMember(member)} is deactivated and cannot use agents`);
    if (!member.email) throw new CommandError(`token create: ${member.display_name} has no email address and cannot use agents`);
    const { secret } = await createPersonalToken(db, {
      memberId: member.id,
      name: args.name,
      access: args.access,
      lifetimeDays: args.lifetimeDays,
    });
    return secret;
  },
});

export const tokenRevoke = defineCommand({
  name: 'token revoke',
  parse(argv) {
    const { values } = parseOptions('token revoke', argv, { member: { type: 'string' }, name: { type: 'string' } });
    return { member: required('token revoke', 'member', values.member), name: required('token revoke', 'name', values.name) };
  },
  run: (db, args) =>
    db.transaction().execute(async (trx) => {
      const member = await findMember(trx, args.member);
      const live = await trx
        .selectFrom('tokens')
        .select(['id', 'name'])
        .where('member_id', '=', member.id)
        .where('kind', '=', 'personal')
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<string>`now()`)]))
        .orderBy('created_at')
        .execute();
      const wanted = normalizeName(args.name);
      const matching = live.filter((t) => normalizeName(t.name) === wanted);
      if (matching.length === 0) {
        const who = describeMember(member);
        // A refusal (exit 1), not a wrong command line: the name is well formed, it names no token.
        throw new CommandError(
          live.length === 0
            ? `token revoke: ${who} has no live personal tokens, so none named "${args.name}"; nothing revoked`
            : `token revoke: ${who} has no live personal token named "${args.name}"; their live tokens are ${candidateList(
                args.name,
                live.map((t) => t.name),
              )}; nothing revoked`,
        );
      }
      await trx
        .updateTable('tokens')
        .set({ revoked_at: sql<string>`now()` })
        .where(
          'id',
          'in',
          matching.map((t) => t.id),
        )
        .execute();
      const count = matching.length === 1 ? 'the token' : `${matching.length} tokens`;
      return `revoked ${count} "${matching[0]!.name}" of ${describeMember(member)}`;
    }),
});

export const tokenList = defineCommand({
  name: 'token list',
  parse(argv) {
    const { values } = parseOptions('token list', argv, { member: { type: 'string' } });
    return { member: required('token list', 'member', values.member) };
  },
  async run(db, args) {
    const member = await findMember(db, args.member);
    // Never the secret (it is not kept) nor its hash: what the AI agents page shows.
    const tokens = await db
      .selectFrom('tokens')
      .select([
        'name',
        'access',
        'created_at',
        'last_used_at',
        'expires_at',
        sql<boolean>`expires_at is not null and expires_at <= now()`.as('expired'),
      ])
      .where('member_id', '=', member.id)
      .where('kind', '=', 'personal')
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .execute();
    if (tokens.length === 0) return `${describeMember(member)} has no personal tokens`;
    return formatTable(
      ['NAME', 'ACCESS', 'CREATED', 'LAST USED', 'EXPIRES'],
      tokens.map((t) => [
        t.name,
        t.access,
        formatWhen(t.created_at),
        formatWhen(t.last_used_at),
        t.expired ? `expired ${formatWhen(t.expires_at)}` : formatWhen(t.expires_at),
      ]),
    );
  },
});
