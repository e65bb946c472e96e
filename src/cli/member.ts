import { sql, type Kysely } from 'kysely';
import { hashPassword } from '../auth/passwords.ts';
import type { DB } from '../storage/schema.ts';
import { uniqueUsername, usernameBase } from '../workspace/usernames.ts';
import { parseOptions, required } from './args.ts';
import { defineCommand } from './command.ts';
import { CommandError, UsageError } from './errors.ts';
import { describeMember, findMember } from './find-member.ts';
import { bumpConfigVersion, recordCliChange } from './history.ts';
import { checkPassword, readPassword } from './read-password.ts';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The same usernames the workspace file gives: from the email's local part, numbered when taken. */
async function freeUsername(db: Kysely<DB>, email: string, name: string): Promise<string> {
  const rows = await db.selectFrom('members').select(sql<string>`lower(username)`.as('name')).execute();
  return uniqueUsername(usernameBase(email, name), new Set(rows.map((r) => r.name)));
}

export const memberAdd = defineCommand({
  name: 'member add',
  parse(argv) {
    const { values } = parseOptions('member add', argv, {
      email: { type: 'string' },
      name: { type: 'string' },
      admin: { type: 'boolean', default: false },
      password: { type: 'string' },
    });
    const email = required('member add', 'email', values.email);
    if (!EMAIL.test(email)) throw new UsageError(`member add: --email "${email}" is not an email address`);
    const password = values.password === undefined ? null : checkPassword('member add', values.password);
    return { email, name: required('member add', 'name', values.name), admin: values.admin === true, password };
  },
  run: (db, args) =>
    db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('members')
        .select('display_name')
        .where(sql<string>`lower(email)`, '=', args.email.toLowerCase())
        .executeTakeFirst();
      if (existing) throw new CommandError(`member add: ${args.email} is already the address of ${existing.display_name}`);
      const member = await trx
        .insertInto('members')
        .values({
          display_name: args.name,
          username: await freeUsername(trx, args.email, args.name),
          email: args.email,
          password_hash: args.password === null ? null : await hashPassword(args.password),
          is_admin: args.admin,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordCliChange(trx, {
        entityType: 'member',
        entityId: member.id,
        kind: 'created',
        changes: [
          { field: 'display_name', from: null, to: args.name },
          { field: 'email', from: null, to: args.email },
          { field: 'admin', from: null, to: args.admin },
        ],
      });
      await bumpConfigVersion(trx);
      const role = args.admin ? 'administrator' : 'member';
      const login = args.password === null ? `; no password yet: set one with atrium member set-password --member ${args.email}` : '';
      return `added ${role} ${args.name} <${args.email}>${login}`;
    }),
});

export const memberSetPassword = defineCommand({
  name: 'member set-password',
  parse(argv) {
    const { values } = parseOptions('member set-password', argv, { member: { type: 'string' }, password: { type: 'string' } });
    return {
      member: required('member set-password', 'member', values.member),
      password: values.password === undefined ? null : checkPassword('member set-password', values.password),
    };
  },
  // The password is read here, never echoed, and handed on as an argument (to the server through
  // a socket only its owner can open).
  async complete(argv, args) {
    return args.password === null ? [...argv, '--password', await readPassword('member set-password')] : [...argv];
  },
  run: (db, args) =>
    db.transaction().execute(async (trx) => {
      if (args.password === null) throw new UsageError('member set-password: --password is required');
      const member = await findMember(trx, args.member);
      await trx
        .updateTable('members')
        .set({ password_hash: await hashPassword(args.password), updated_at: new Date().toISOString() })
        .where('id', '=', member.id)
        .execute();
      // Never the password or its hash in history: only that it changed.
      await recordCliChange(trx, {
        entityType: 'member',
        entityId: member.id,
        kind: 'password_set',
        changes: [{ field: 'password', from: null, to: null }],
      });
      await bumpConfigVersion(trx);
      return `set the password of ${describeMember(member)}`;
    }),
});

export const memberDeactivate = defineCommand({
  name: 'member deactivate',
  parse(argv) {
    const { values } = parseOptions('member deactivate', argv, { member: { type: 'string' } });
    return { member: required('member deactivate', 'member', values.member) };
  },
  run: (db, args) =>
    db.transaction().execute(async (trx) => {
      const member = await findMember(trx, args.member);
      if (!member.active) return `${describeMember(member)} was already deactivated`;
      await trx.updateTable('members').set({ active: false, updated_at: new Date().toISOString() }).where('id', '=', member.id).execute();
      await recordCliChange(trx, {
        entityType: 'member',
        entityId: member.id,
        kind: 'deactivated',
        changes: [{ field: 'active', from: true, to: false }],
      });
      await bumpConfigVersion(trx);
      return `deactivated ${describeMember(member)}; their tokens stop working at once`;
    }),
});
