import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Context } from '../../../core/context.ts';
import { moduleOffReason, type WorkspaceSettings } from '../../../core/settings.ts';
import { toTimestamp } from '../../../core/time.ts';
import { recordVisibleSql } from '../../../core/visibility.ts';
import { crmRecordsNamed } from '../../../modules/crm/index.ts';
import { recordSwitches, visibilities } from '../../../modules/index.ts';
import { agentEdits } from '../../../modules/knowledge/index.ts';
import { ticketScope, visibleTicketSql } from '../../../modules/tickets/index.ts';
import { ownActivitiesNamed } from '../../../modules/time/index.ts';
import type { HistoryChange } from '../../../storage/schema.ts';
import { describeChanges } from '../../changes.ts';
import { emptyState, table } from '../../components/index.ts';
import { shownTime } from '../../format.ts';
import { html, type Html } from '../../html.ts';
import { pageHref, ticketLink } from '../../links.ts';
import { readContext } from '../../read-context.ts';
import { sendMemberPage } from '../../respond.ts';
import type { PagesDeps } from '../../session.ts';
import { requireSession } from '../../require-session.ts';

const SHOWN = 200;

/** What a kind of history entry did, as a verb before the thing it did it to. */
const VERBS: Record<string, string> = {
  created: 'created',
  updated: 'changed',
  fields: 'changed fields of',
  transitioned: 'moved',
  commented: 'commented on',
  assigned: 'assigned',
  worklog: 'logged work on',
  sprint: 'moved to another sprint',
  ranked: 're-ranked',
  stopped: 'stopped the timer of',
  stopped_by_new: 'stopped, by starting another timer,',
  deleted: 'deleted',
  completed: 'completed',
  archived: 'archived',
};

const NOUNS: Record<string, string> = {
  ticket: 'ticket',
  activity: 'time entry',
  contact: 'contact',
  company: 'company',
  interaction: 'interaction',
};

interface Row {
  at: string;
  via: string;
  what: Html;
  changes: Html | string;
}

interface HistoryRow {
  at: string;
  entity_type: string;
  entity_id: string;
  kind: string;
  via: string | null;
  changes: HistoryChange[];
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

/** Which audit targets (`type:id`) the member may see now, by each record's module (core/visibility.ts). */
async function visibleTargets(ctx: Context, targets: readonly { type: string; id: string }[]): Promise<Set<string>> {
  if (targets.length === 0) return new Set();
  const { rows } = await sql<{ type: string; id: string }>`
    select a.type, a.id from jsonb_to_recordset(${JSON.stringify(targets)}::jsonb) as a(type text, id uuid)
    where ${recordVisibleSql(visibilities, sql.ref('a.type'), ctx.actor.memberId, sql.ref('a.id'))}
  `.execute(ctx.db);
  return new Set(rows.map((row) => `${row.type}:${row.id}`));
}

/**
 * Deals among the tickets `ids` whose Deal the member may see now, as GET /tickets shows it (the
 * CRM on, and open to them for the deal's company): the others' changes of company are left out.
 */
async function dealsShown(ctx: Context, ids: readonly string[]): Promise<ReadonlySet<string>> {
  const deals = ctx.hooks.ticketDeal;
  if (!deals || ids.length === 0) return new Set();
  return new Set(
    (
      await deals.present(
        ctx,
        ids.map((id) => ({ id, fields: {} })),
      )
    ).keys(),
  );
}

/** Kinds of record whose module is switched off now: the page lists none of them until it is back on. */
function switchedOffKinds(settings: WorkspaceSettings): string[] {
  return Object.entries(recordSwitches)
    .filter(([, module]) => moduleOffReason(module, settings) !== null)
    .map(([kind]) => kind);
}

const idsOf = (rows: readonly HistoryRow[], type: string) => [
  ...new Set(rows.filter((row) => row.entity_type === type).map((row) => row.entity_id)),
];

/**
 * Each entry's "what" in words, with a link to what it touched where the member may still see it;
 * a record they can no longer see keeps its name and its values to itself.
 */
async function describeHistory(ctx: Context, rows: readonly HistoryRow[], zone: string): Promise<Row[]> {
  const dealChanges = rows.filter((row) => row.entity_type === 'ticket' && row.changes.some((c) => c.field === 'company'));
  const [keys, deals, activities, crm] = await Promise.all([
    visibleKeys(ctx, idsOf(rows, 'ticket')),
    dealsShown(ctx, idsOf(dealChanges, 'ticket')),
    ownActivitiesNamed(ctx, idsOf(rows, 'activity')),
    ctx.settings.modules.crm
      ? crmRecordsNamed(ctx, { contact: idsOf(rows, 'contact'), company: idsOf(rows, 'company'), interaction: idsOf(rows, 'interaction') })
      : Promise.resolve(new Map()),
  ]);
  return rows.map((row) => {
    const verb = VERBS[row.kind] ?? row.kind.replace(/_/g, ' ');
    const noun = NOUNS[row.entity_type] ?? row.entity_type.replace(/_/g, ' ');
    let thing: Html | null = null;
    let shown = row.changes;
    if (row.entity_type === 'ticket') {
      const key = keys.get(row.entity_id);
      if (key) thing = ticketLink(key);
      // a deal's company is the CRM's: named only where the member may see the deal
      shown = row.changes.filter(
        (c) => !(row.kind === 'created' && c.field === 'key') && (deals.has(row.entity_id) || c.field !== 'company'),
      );
    } else if (row.entity_type === 'activity') {
      const activity = activities.get(row.entity_id);
      if (activity) thing = html`the <a href="/time">time entry</a>${activity.description ? html` “${activity.description}”` : ''}`;
    } else {
      const record = crm.get(row.entity_id);
      if (record) thing = html`the ${noun} <a href="${record.path}">${record.name}</a>`;
    }
    if (!thing)
      return { at: row.at, via: row.via!, what: html`${verb} <span class="muted">a ${noun} you cannot see now</span>`, changes: '' };
    return { at: row.at, via: row.via!, what: html`${verb} ${thing}`, changes: describeChanges(shown, { zone }) };
  });
}

const humanize = (action: string) => action.replace(/[._]+/g, ' ');

/**
 * "What my agents did": the member's recent changes made through tokens and connected
 * applications, in every module — tickets, time entries and CRM records (history), knowledge
 * pages (their versions) and workspace configuration (the audit log) — newest first, in words,
 * each with the agent that made it and its time in the member's zone.
 */
export function activityRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/agents/activity', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const ctx = await readContext(deps, session, request.id, request.log);
    const off = switchedOffKinds(ctx.settings);
    // none of a switched-off module's records until it is back on
    const [history, audit, edits] = await Promise.all([
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
      ctx.settings.modules.knowledge ? agentEdits(ctx, SHOWN) : Promise.resolve([]),
    ]);
    const zone = session.timezone;
    const targetOf = (row: { target_type: string; target_id: string | null }) => `${row.target_type}:${row.target_id}`;
    const seen = await visibleTargets(ctx, [
      ...new Map(
        audit.flatMap((row) => (row.target_id === null ? [] : [[targetOf(row), { type: row.target_type, id: row.target_id }] as const])),
      ).values(),
    ]);
    const rows: Row[] = [
      ...(await describeHistory(ctx, history, zone)),
      ...edits.map((edit) => ({
        at: edit.at,
        via: edit.via,
        what: edit.page
          ? html`${edit.version === 1 ? 'created' : 'edited'} the page <a href="${pageHref(edit.page.space, edit.page.slug)}">${edit.page.title}</a> <span class="muted">in ${edit.page.space}</span>`
          : html`${edit.version === 1 ? 'created' : 'edited'} <span class="muted">a page you cannot see now</span>`,
        changes: edit.page ? `Version ${edit.version}` : '',
      })),
      // a configuration record the member can no longer see keeps its name and values to itself
      ...audit.map((row) =>
        seen.has(targetOf(row))
          ? {
              at: row.at,
              via: row.via!,
              what: html`${humanize(row.action)}: ${row.target}`,
              changes: describeChanges(row.changes, { switches: true, zone }),
            }
          : {
              at: row.at,
              via: row.via!,
              what: html`${humanize(row.action)} <span class="muted">(one you cannot see now)</span>`,
              changes: '',
            },
      ),
    ]
      .sort((a, b) => toTimestamp(b.at).localeCompare(toTimestamp(a.at)))
      .slice(0, SHOWN);
    const body = html`<div class="card"><h1>What my agents did</h1>
<p class="muted">Changes made as you through personal tokens and connected applications, in every module, newest first (the last ${SHOWN}). Times are in your time zone, ${zone}.</p>
${
  rows.length === 0
    ? emptyState(
        'no-activity',
        'Your agents have not changed anything yet.',
        'When an agent works as you through a token or a connected application, each change it makes is listed here.',
      )
    : table(
        [
          { header: 'When', cell: (row) => shownTime(row.at, zone) },
          { header: 'Agent', cell: (row) => row.via, className: 'agent' },
          { header: 'What', cell: (row) => row.what, className: 'what' },
          { header: 'Changed', cell: (row) => row.changes, className: 'changed' },
        ],
        rows,
        { id: 'activity', caption: 'Changes your agents made, newest first' },
      )
}</div>`;
    return sendMemberPage(request, reply, deps, session, {
      title: 'What my agents did',
      body,
      section: 'activity',
      crumbs: [{ label: 'What my agents did' }],
    });
  });
}
