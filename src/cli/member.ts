import { sql, type Kysely } from 'kysely';
import { hashPassword } from '../auth/passwords.ts';
import type { DB } from '../storage/schema.ts';
import { uniqueUsername, usernameBase } from '../workspace/usernames.ts';
import { parseOptions, required } from './args.ts';
import { defineCommand } from './command.ts';
import { CommandError, UsageError } from './errors.ts';
import { describeMember, findMember } from './find-member.ts';
import { auditCliChange, bumpConfigVersion, recordCliChange } from './history.ts';
import { formatTable } from './table.ts';
import { checkPassword, readPassword } from './read-password.ts';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The same usernames the workspace file gives: from the email's local part, numbered when taken. */
async function freeUsername(db: Kysely<DB>, email: string, name: string): Promise<string> {
  const rows = await db.selectFrom('members').select(sql<string>`lower(username)`.as('name')).execute();
  return uniqueUsername(usernameBase(email, name), new Set(rows.map((r) => r.name)));
}

/** The member as the audit log names a target: `member Grace Hopper <grace@example.com>`. */
function memberTarget(name: string, email: string | null): string {
  return `member ${email ? `${name} <${email}>` : name}`;
}

export const memberAdd = defineCommand({
  name: 'member add',
  changesWorkspace: true,
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
      const changes = [
        { field: 'display_name', from: null, to: args.name },
        { field: 'email', from: null, to: args.email },
        { field: 'admin', from: null, to: args.admin },
      ];
      await recordCliChange(trx, { entityType: 'member', entityId: member.id, kind: 'created', changes });
      await auditCliChange(trx, {
        action: 'member.created',
        targetType: 'member',
        targetId: member.id,
        target: memberTarget(args.name, args.email),
        changes,
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
      // Never the password or its hash in history or the audit log: only that it changed.
      const changes = [{ field: 'password', from: null, to: null }];
      await recordCliChange(trx, { entityType: 'member', entityId: member.id, kind: 'password_set', changes });
      await auditCliChange(trx, {
        action: 'member.password_set',
        targetType: 'member',
        targetId: member.id,
        target: memberTarget(member.display_name, member.email),
        changes,
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
      const changes = [{ field: 'active', from: true, to: false }];
      await recordCliChange(trx, { entityType: 'member', entityId: member.id, kind: 'deactivated', changes });
      await auditCliChange(trx, {
        action: 'member.deactivated',
        targetType: 'member',
        targetId: member.id,
        target: memberTarget(member.display_name, member.email),
        changes,
      });
      await bumpConfigVersion(trx);
      return `deactivated ${describeMember(member)}; their tokens stop working at once`;
    }),
});

export const memberList = defineCommand({
  name: 'member list',
  parse(argv) {
    parseOptions('member list', argv, {});
    return {};
  },
  async run(db) {
    const members = await db
      .selectFrom('members')
      .select(['display_name', 'email', 'username', 'is_admin', 'active'])
      .orderBy(sql`lower(display_name)`)
      .execute();
    if (members.length === 0) return 'no members yet; add one with atrium member add';
    return formatTable(
      ['NAME', 'EMAIL', 'USERNAME', 'ROLE', 'STATUS'],
      members.map((m) => [
        m.display_name,
        m.email ?? '—',
        m.username,
        m.is_admin ? 'administrator' : 'member',
        m.active ? 'active' : 'deactivated',
      ]),
    );
  },
});
