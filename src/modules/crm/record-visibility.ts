import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { RecordVisibility } from '../../core/visibility.ts';
import type { DB } from '../../storage/schema.ts';
import { ticketVisibleToSql } from '../tickets/index.ts';
import { crmSeesSql } from './policy.ts';

/**
 * Who may see the CRM's records (spec 4.7), for whoever a record is carried to (a follow-up's
 * reminder, the page of what a member's agents did): a contact and a company where the member may
 * see the CRM for its company; an interaction there too and, about a ticket, where they may see the
 * ticket. The same rules the reads ask (interactionVisibleSql, contactVisibleSql), with the
 * member's roles read by the statement.
 */

/** SQL: interaction `alias` (its ticket joined) is seen where its company is and, about a ticket, where that is. */
export function interactionRuleSql(company: RawBuilder<boolean>, ticket: RawBuilder<boolean>, alias = 'i') {
  return sql<boolean>`(${company} and (${sql.ref(`${alias}.ticket_id`)} is null or ${ticket}))`;
}

// Aliases of their own (vis_…): the statement asking names its rows with the usual short ones.
const interaction: RecordVisibility = (member, record) => {
  const seesCompany = crmSeesSql(member, sql.ref('vis_i.company_id'));
  const rule = interactionRuleSql(seesCompany, ticketVisibleToSql(member, 'vis_tk'), 'vis_i');
  return sql<boolean>`exists (select 1 from interactions vis_i left join tickets vis_tk on vis_tk.id = vis_i.ticket_id
    where vis_i.id = ${record} and ${rule})`;
};

const contact: RecordVisibility = (member, record) =>
  sql<boolean>`exists (select 1 from contacts vis_c
    where vis_c.id = ${record} and ${crmSeesSql(member, sql.ref('vis_c.company_id'))})`;

const company: RecordVisibility = (member, record) =>
  sql<boolean>`exists (select 1 from companies vis_co
    where vis_co.id = ${record} and ${crmSeesSql(member, sql.ref('vis_co.id'))})`;

export const crmVisibility = { interaction, contact, company };

/** An active member, and whether they may see the CRM for a follow-up's company and the follow-up itself. */
export interface FollowUpViewer {
  id: string;
  name: string;
  seesCompany: boolean;
  seesFollowUp: boolean;
}

/**
 * Every active member, by name, with what they may see of a follow-up about `company` and
 * `ticket` (each null when it is about none) before it is written: the interaction's own rule
 * above, asked of the values it will have. Who may be its assignee (its reminder reaches them).
 */
export async function followUpViewers(db: Kysely<DB>, about: { company: string | null; ticket: string | null }): Promise<FollowUpViewer[]> {
  const member = sql.ref('m.id');
  const seesCompany = crmSeesSql(member, sql.ref('vis_i.company_id'));
  const { rows } = await sql<FollowUpViewer>`
    select m.id, m.display_name as name, ${seesCompany} as "seesCompany",
      ${interactionRuleSql(seesCompany, ticketVisibleToSql(member, 'vis_tk'), 'vis_i')} as "seesFollowUp"
    from members m
    cross join (select ${about.company}::uuid as company_id, ${about.ticket}::uuid as ticket_id) vis_i
    left join tickets vis_tk on vis_tk.id = vis_i.ticket_id
    where m.active
    order by m.display_name, m.id
  `.execute(db);
  return rows;
}
