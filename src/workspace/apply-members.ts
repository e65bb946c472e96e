import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { checkMembers } from './check-members.ts';
import type { ApplyContext, WorkspaceSectionHandler } from './context.ts';
import { People } from './people.ts';
import type { MemberEntry } from './schema.ts';
import type { StoredRow } from './writer.ts';

/** Omitted: keep. null: no password. A password that still matches keeps its hash (and its salt). */
async function passwordHash(entry: MemberEntry, stored: string | null | undefined): Promise<string | null | undefined> {
  if (entry.password === undefined) return stored === undefined ? null : undefined;
  if (entry.password === null) return null;
  if (stored && (await verifyPassword(entry.password, stored))) return stored;
  return hashPassword(entry.password);
}

/**
 * Members are upserted by email address; fields the file leaves out keep their stored value
 * (members are also managed with the CLI). Members the file does not list are left as they are.
 */
async function apply(ctx: ApplyContext): Promise<void> {
  const entries = ctx.file.members ?? [];
  const stored = await ctx.db.selectFrom('members').selectAll().execute();
  const byId = new Map(stored.map((m) => [m.id, m]));
  const existingOf = (plan: (typeof ctx.checked.memberPlans)[number]) => (plan.existingId ? byId.get(plan.existingId) : undefined);
  // scrypt runs on libuv's thread pool: hashing (or verifying) all passwords at once is faster.
  const hashes = await Promise.all(
    ctx.checked.memberPlans.map((plan) => {
      const existing = existingOf(plan);
      return passwordHash(entries[plan.index]!, existing ? existing.password_hash : undefined);
    }),
  );
  for (const [i, plan] of ctx.checked.memberPlans.entries()) {
    const entry = entries[plan.index]!;
    const existing = existingOf(plan);
    await ctx.writer.save(
      'members',
      existing as StoredRow | undefined,
      {
        display_name: entry.name,
        username: plan.username,
        email: existing && entry.email === undefined ? undefined : (entry.email ?? null),
        password_hash: hashes[i],
        is_admin: entry.admin,
        active: entry.active,
        timezone: entry.timezone,
      },
      { touch: true },
    );
  }
  const members = await ctx.db
    .selectFrom('members')
    .select(['id', 'display_name', 'username', 'email'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  ctx.people = new People(members.map((m) => ({ id: m.id, name: m.display_name, email: m.email, username: m.username })));
}

export const membersSection: WorkspaceSectionHandler = { name: 'members', check: checkMembers, apply };
