import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { moduleOffReason, type WorkspaceSettings } from '../../core/settings.ts';
import { toTimestamp } from '../../core/time.ts';
import { recordVisibleSql } from '../../core/visibility.ts';
import { recordSwitches, visibilities } from '../../modules/index.ts';
import { ticketScope, visibleTicketSql } from '../../modules/tickets/index.ts';
import type { HistoryChange } from '../../storage/schema.ts';
import { describeChanges } from '../changes.ts';
import { html, type Html } from '../html.ts';
import { layout } from '../layout.ts';
import { ticketLink } from '../links.ts';
import { readContext } from '../read-context.ts';
import { sendPage, viewerOf } from '../respond.ts';
import type { WebDeps } from '../session.ts';
import { requireSession } from './guard.ts';

const SHOWN = 200;

const KIND_WORDS: Record<string, string> = {
  created: 'created',
  updated: 'changed',
  fields: 'changed fields of',
  transitioned: 'moved',
  commented: 'commented on',
  assigned: 'assigned',
  worklog: 'logged work on',
  sprint: 'moved to another sprint',
  ranked: 're-ranked',
};

/** A history entry the page lists: the member's own change through an agent. */
interface HistoryRow {
  at: string;
  entity_type: string;
  entity_id: string;
  kind: string;
  via: string | null;
  changes: HistoryChange[];
}

/** A workspace audit log entry the page lists: a configuration change (helpdesk forms) by the member's agent. */
interface AuditRow {
  at: string;
  action: string;
  target: string;
  target_type: string;
  target_id: string | null;
  via: string | null;
  changes: HistoryChange[];
}

interface Row {
  at: string;
  via: string | null;
  what: Html | string;
  changes: Html | string;
}

/** Keys of the tickets among `ids` the member can see now (the visibility rule of GET /tickets, in SQL). */
async function visibleKeys(ctx: Context, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const scope = await ticketScope(ctx);
  const { rows } = await sql<{ id: string; key: string }>`
    select t.id, t.key from tickets t where t.id = any(${[...ids]}::uuid[]) and ${visibleTicketSql(scope)}
  `.execute(ctx.db);
  return new Map(rows.map((row) => [row.id, row.key]));
}

/** Which of the other records (`type:id`) the member may see now, by each record's module (core/visibility.ts). */
async function visibleRecords(ctx: Context, records: readonly { type: string; id: string }[]): Promise<Set<string>> {
  if (records.length === 0) return new Set();
  const { rows } = await sql<{ entity_type: string; entity_id: string }>`
    select a.type as entity_type, a.id as entity_id
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as a(type text, id uuid)
    where ${recordVisibleSql(visibilities, sql.ref('a.type'), ctx.actor.memberId, sql.ref('a.id'))}
  `.execute(ctx.db);
  return new Set(rows.map((row) => `${row.entity_type}:${row.entity_id}`));
}

/**
 * Deals among the tickets `ids` whose Deal the member may see now, as GET /tickets shows it (the
 * CRM on, and open to them for the deal's company): the others' changes of company are left out.
 */
async function dealsShown(ctx: Context, ids: readonly string[]): Promise<ReadonlySet<string>> {
  const deals = ctx.hooks.ticketDeal;
  if (!deals || ids.length === 0) return new Set();
  return new Set((await deals.present(ctx, ids.map((id) => ({ id, fields: {} })))).keys());
}

/** Kinds of record whose module is switched off now: the page lists none of them until it is back on. */
function switchedOffKinds(settings: WorkspaceSettings): string[] {
  return Object.entries(recordSwitches)
    .filter(([, module]) => moduleOffReason(module, settings) !== null)
    .map(([kind]) => kind);
}

function auditRow(row: AuditRow, visible: boolean): Row {
  const { at, via } = row;
  // a request type of a project the member can no longer view keeps its name and values to itself
  const hidden = html`<span class="muted">(one you cannot see now)</span>`;
  if (!visible) return { at, via, what: html`${row.action} ${hidden}`, changes: '' };
  return { at, via, what: `${row.action}: ${row.target}`, changes: describeChanges(row.changes, true) };
}

function otherRow(row: HistoryRow, visible: boolean): Row {
  const { at, via } = row;
  // a contact, company or interaction the member can no longer see keeps its values to itself too
  const what = html`${row.entity_type} ${row.kind}`;
  const hidden = html`<span class="muted">(one you cannot see now)</span>`;
  if (!visible) return { at, via, what: html`${what} ${hidden}`, changes: '' };
  return { at, via, what, changes: describeChanges(row.changes) };
}

function ticketRow(
  at: string,
  via: string | null,
  kind: string,
  key: string | undefined,
  changes: HistoryChange[],
  deal: boolean,
): Row {
  // a ticket the member can no longer see keeps its key and its values to itself
  if (!key) return { at, via, what: html`${KIND_WORDS[kind] ?? kind} <span class="muted">a ticket you cannot see now</span>`, changes: '' };
  // a deal's company is the CRM's: named only where the member may see the deal
  const shown = changes.filter((c) => !(kind === 'created' && c.field === 'key') && (deal || c.field !== 'company'));
  return { at, via, what: html`${KIND_WORDS[kind] ?? kind} ${ticketLink(key)}`, changes: describeChanges(shown) };
}

/**
 * "What my agents did": the member's recent changes made through tokens, newest first, each with
 * the name of the token or application that made it (history's `via`), the ticket it touched (a
 * link) and the values that changed.
 */
export function activityRoutes(app: FastifyInstance, deps: WebDeps): void {
  app.get('/agents/activity', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const ctx = await readContext(deps, session, request.id, request.log);
    const off = switchedOffKinds(ctx.settings);
    // ticket history and the workspace audit log (helpdesk forms), merged newest first; none of a switched-off module
    const [history, audit] = await Promise.all([
      deps.db
        .selectFrom('history')
        .select(['at', 'entity_type', 'entity_id', 'kind', 'via', 'changes'])
        .where('actor_id', '=', session.memberId)
        .where('via', 'is not', null)
        .$if(off.length > 0, (q) => q.where('entity_type', 'not in', off))
        .orderBy('at', 'desc')
        .limit(SHOWN)
        .execute(),
      deps.db
        .selectFrom('audit_log')
        .select(['at', 'action', 'target', 'target_type', 'target_id', 'via', 'changes'])
        .where('actor_id', '=', session.memberId)
        .where('via', 'is not', null)
        .$if(off.length > 0, (q) => q.where('target_type', 'not in', off))
        .orderBy('at', 'desc')
        .limit(SHOWN)
        .execute(),
    ]);
    const recordOf = (row: { type: string; id: string | null }) => `${row.type}:${row.id}`;
    const others = [
      ...history.flatMap((row) => (row.entity_type === 'ticket' ? [] : [{ type: row.entity_type, id: row.entity_id }])),
      ...audit.flatMap((row) => (row.target_id === null ? [] : [{ type: row.target_type, id: row.target_id }])),
    ];
    const tickets = history.filter((row) => row.entity_type === 'ticket');
    const dealChanges = tickets.filter((row) => row.changes.some((c) => c.field === 'company')).map((r) => r.entity_id);
    const [keys, seen, deals] = await Promise.all([
      visibleKeys(ctx, [...new Set(tickets.map((row) => row.entity_id))]),
      visibleRecords(ctx, [...new Map(others.map((record) => [recordOf(record), record])).values()]),
      dealsShown(ctx, [...new Set(dealChanges)]),
    ]);
    const rows: Row[] = [
      ...history.map((row) =>
        row.entity_type === 'ticket'
          ? ticketRow(row.at, row.via, row.kind, keys.get(row.entity_id), row.changes, deals.has(row.entity_id))
          : otherRow(row, seen.has(recordOf({ type: row.entity_type, id: row.entity_id }))),
      ),
      ...audit.map((row) => auditRow(row, seen.has(recordOf({ type: row.target_type, id: row.target_id })))),
    ]
      .sort((a, b) => toTimestamp(b.at).localeCompare(toTimestamp(a.at)))
      .slice(0, SHOWN);
    const body = html`<div class="card"><h1>What my agents did</h1>
<p class="muted">Changes made as you through personal tokens and connected applications, newest first (the last ${SHOWN}).</p>
${
  rows.length === 0
    ? html`<p id="no-activity">Your agents have not changed anything yet.</p>`
    : html`<table id="activity" class="stack"><thead><tr><th>When</th><th>Agent</th><th>What</th><th>Changed</th></tr></thead><tbody>${rows.map(
        (row) =>
          html`<tr><td>${toTimestamp(row.at).slice(0, 19).replace('T', ' ')} UTC</td><td class="agent">${row.via}</td><td class="what">${row.what}</td><td class="changed">${row.changes}</td></tr>`,
      )}</tbody></table>`
}</div>`;
    return sendPage(reply, layout('What my agents did', body, viewerOf(session)));
  });
}
