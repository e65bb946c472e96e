import { sql, type RawBuilder } from 'kysely';
import type { RecordVisibility } from '../../core/visibility.ts';
import { ticketVisibleToSql } from '../tickets/index.ts';
import { crmSeesSql } from './policy.ts';

/**
 * Who may see the CRM's records (spec 4.7), for whoever a record is carried to (a follow-up's
 * reminder, the page of what a member's agents did): a contact and a company where the member may
 * see the CRM for its company; an interaction there too and, about a ticket, where they may see the
 * ticket. The same rules the reads ask (interactionVisibleSql, contactVisibleSql), with the
 * member's roles read by the statement.
 */

/** SQL: interaction `i` (with its ticket joined as `tk`) is seen where its company is and, about a ticket, where the ticket is. */
export const interactionRuleSql = (company: RawBuilder<boolean>, ticket: RawBuilder<boolean>): RawBuilder<boolean> =>
  sql<boolean>`(${company} and (i.ticket_id is null or ${ticket}))`;

const interaction: RecordVisibility = (member, record) =>
  sql<boolean>`exists (select 1 from interactions i left join tickets tk on tk.id = i.ticket_id
    where i.id = ${record} and ${interactionRuleSql(crmSeesSql(member, sql.ref('i.company_id')), ticketVisibleToSql(member, 'tk'))})`;

const contact: RecordVisibility = (member, record) =>
  sql<boolean>`exists (select 1 from contacts c where c.id = ${record} and ${crmSeesSql(member, sql.ref('c.company_id'))})`;

const company: RecordVisibility = (member, record) =>
  sql<boolean>`exists (select 1 from companies c where c.id = ${record} and ${crmSeesSql(member, sql.ref('c.id'))})`;

export const crmVisibility = { interaction, contact, company };
