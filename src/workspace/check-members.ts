import { normalizeName } from '../core/names.ts';
import { isTimeZone } from '../core/time.ts';
import { requireUnique } from './check-names.ts';
import type { CheckContext, MemberPlan } from './context.ts';
import { fail, filePath } from './path.ts';
import { People, type PersonRecord } from './people.ts';
import type { MemberEntry } from './schema.ts';
import { uniqueUsername, usernameBase } from './usernames.ts';

/** The stored member a file entry describes: by email, else by username, else a member without email of that name. */
function matchExisting(ctx: CheckContext, entry: MemberEntry) {
  const members = ctx.existing.members;
  if (entry.email) return members.find((m) => m.email !== null && normalizeName(m.email) === normalizeName(entry.email!));
  if (entry.username) return members.find((m) => normalizeName(m.username) === normalizeName(entry.username!));
  return members.find((m) => m.email === null && normalizeName(m.display_name) === normalizeName(entry.name));
}

/**
 * Works out which stored member each entry is and the username each will have, so that the
 * other sections can name members before any is written.
 */
export function checkMembers(ctx: CheckContext): void {
  const entries = ctx.file.members ?? [];
  requireUnique(
    entries.filter((e) => e.email),
    (e) => e.email!,
    ['members'],
    'email address',
  );
  entries.forEach((entry, index) => {
    if (entry.timezone !== undefined && !isTimeZone(entry.timezone)) {
      fail(filePath('members', index, 'timezone'), `"${entry.timezone}" is not an IANA time zone (e.g. Europe/Berlin)`);
    }
  });

  const matches = entries.map((entry) => matchExisting(ctx, entry));
  const matchedIds = new Set(matches.filter((m) => m).map((m) => m!.id));
  const taken = new Map<string, string>(); // lowercased username → where it is used
  for (const member of ctx.existing.members) {
    if (!matchedIds.has(member.id)) taken.set(member.username.toLowerCase(), `member "${member.display_name}"`);
  }

  const usernames: (string | null)[] = entries.map((entry, index) => {
    const username = entry.username ?? matches[index]?.username ?? null;
    if (username === null) return null;
    const holder = taken.get(username.toLowerCase());
    if (holder) fail(filePath('members', index, 'username'), `username "${username}" is already taken by ${holder}`);
    taken.set(username.toLowerCase(), filePath('members', index));
    return username;
  });
  const plans: MemberPlan[] = entries.map((entry, index) => {
    let username = usernames[index] ?? null;
    if (username === null) {
      username = uniqueUsername(usernameBase(entry.email, entry.name), new Set(taken.keys()));
      taken.set(username.toLowerCase(), filePath('members', index));
    }
    return { index, existingId: matches[index]?.id ?? null, username };
  });

  const records: PersonRecord[] = plans.map((plan) => {
    const entry = entries[plan.index]!;
    const stored = matches[plan.index];
    return {
      id: plan.existingId,
      name: entry.name,
      email: entry.email !== undefined ? entry.email : (stored?.email ?? null),
      username: plan.username,
    };
  });
  for (const member of ctx.existing.members) {
    if (!matchedIds.has(member.id)) {
      records.push({ id: member.id, name: member.display_name, email: member.email, username: member.username });
    }
  }
  ctx.memberPlans = plans;
  ctx.people = new People(records);
}
