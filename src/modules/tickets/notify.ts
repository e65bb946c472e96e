import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { notificationsInsert } from '../../core/notifications.ts';
import { mentionedUsernames } from '../../core/mentions.ts';
import type { MemberSql } from '../../policy/ability.ts';
import { ticketRecordVisibleSql, ticketVisibleToSql } from './visibility.ts';

/** Mentions in one text up to which each name is a parameter of its own. */
const MENTIONS_LISTED = 8;

/** Where a ticket being created is, for the statement that creates it (it cannot read the row it writes). */
export interface NewTicketPlace {
  projectId: string;
  securityLevelId: string | null;
}

export interface Announcement {
  /**
   * `key`: the ticket's key, or an expression of the statement that numbers a new ticket (its key
   * is known there only); `place`: where a new ticket is (an existing one is read where it is).
   */
  ticket: { id: string; key: string | RawBuilder<unknown>; place?: NewTicketPlace };
  /** `created`, `updated`, `transitioned`, `assigned`, `commented`, `worklog`. */
  kind: string;
  payload: Record<string, unknown>;
  /** Markdown whose `@username` mentions notify those members too. */
  markdown?: string | null;
  /**
   * The ticket's watchers, for the statement that creates it and them: it cannot read the rows it
   * writes. Left out, they are read from the ticket's watchers.
   */
  watchers?: readonly string[];
}

/**
 * Spec 6: a change is announced to the ticket's watchers except the member, in the same
 * transaction (the notifications table is the outbox a mailer reads). Each person gets one row
 * per change; a mentioned person's row says so. Only a member who may see the ticket is told
 * (a watcher who lost access, a mention of someone outside its project or security level: no
 * row). Returns the inserts, for the caller to send with its other writes: the watchers, the
 * mentioned members and what each may see are read by the inserts themselves, as the statement
 * finds them, so an announcement costs no round trip of its own.
 */
export function announcementInserts(ctx: Context, announcement: Announcement): RawBuilder<unknown>[] {
  const usernames = announcement.markdown ? mentionedUsernames(announcement.markdown) : [];
  const { key } = announcement.ticket;
  const payload = { by: { id: ctx.actor.memberId, name: ctx.actor.name }, via: ctx.agent.name, ...announcement.payload };
  const { id, place } = announcement.ticket;
  const visibleTo = place
    ? (member: MemberSql) => sql<boolean>`exists (select 1 from (select ${place.projectId}::uuid as project_id,
        ${place.securityLevelId}::uuid as security_level_id) vis_t where ${ticketVisibleToSql(member, 'vis_t')})`
    : (member: MemberSql) => ticketRecordVisibleSql(member, sql<string>`${id}::uuid`);
  const about = { entityType: 'ticket', entityId: id, visibleTo };
  const payloadOf = (extra: Record<string, unknown>) =>
    typeof key === 'string' ? { key, ...extra } : sql`jsonb_build_object('key', ${key}) || ${JSON.stringify(extra)}::jsonb`;
  // A list the planner can count, so each name is one probe of members_username_key in the generic
  // plan too: given an array parameter, that plan read every member and lowercased each name, twice
  // a statement (ADR 0022). Past a few names, one array: a statement shape for every count would not pay.
  const names =
    usernames.length <= MENTIONS_LISTED ? sql`array[${sql.join(usernames.map((name) => sql`${name}::text`))}]` : sql`${usernames}::text[]`;
  // the member made the change (through any of their agents): they are told nothing about it
  const mentioned = sql`select id from members where active and lower(username) = any(${names}) and id <> ${ctx.actor.memberId}::uuid`;
  const watching = announcement.watchers
    ? sql`select unnest(${[...announcement.watchers]}::uuid[]) as member_id`
    : sql`select member_id from ticket_watchers where ticket_id = ${announcement.ticket.id}::uuid`;
  const watchers = sql`select member_id from (${watching}) w where member_id <> ${ctx.actor.memberId}::uuid
    ${usernames.length ? sql`and member_id not in (${mentioned})` : sql``}`;
  const inserts = [notificationsInsert({ ...about, recipients: watchers, kind: announcement.kind, payload: payloadOf(payload) }, ctx.mail)];
  if (usernames.length) {
    inserts.push(
      notificationsInsert(
        { ...about, recipients: mentioned, kind: 'mentioned', payload: payloadOf({ ...payload, event: announcement.kind }) },
        ctx.mail,
      ),
    );
  }
  return inserts;
}

/** Writes an announcement (announcementInserts) in one round trip of its own. */
export async function announce(ctx: Context, announcement: Announcement): Promise<void> {
  const [watchers, mentions] = announcementInserts(ctx, announcement);
  await (mentions ? sql`with mentions as (${mentions}) ${watchers!}` : watchers!).execute(ctx.db);
}
