import { prefixQueryOf, searchWords } from '../../core/search-words.ts';
import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { tokenCheckColumn } from '../../core/token-check.ts';
import { StructureKind } from '../../core/structure-cache.ts';
import { normalizeLabel, normalizeName, resolveName } from '../../core/names.ts';
import { resolvePerson } from '../../core/people.ts';
import { projectsByKey, projectStructure, type ProjectRow } from '../projects/index.ts';
import { cachedStatusCategories } from './project-config.ts';
import { levelGrantedSql, readableCommentSql, ticketScope, visibleTicketSql, type TicketScope } from './visibility.ts';
import { summariesOf, summaryCellsJson, type SummaryCells } from './names.ts';
import type { SearchQuery, TicketSearchResult } from './schemas.ts';
import { pageTotal } from '../../storage/page-total.ts';
import { pageWindow } from '../../storage/page-window.ts';
import { PREPARE } from '../../storage/prepared.ts';
import { textSql, uuidListSql, uuidSql, type Binding } from '../../storage/parameter-binding.ts';
import { matchesAreCommon, wordFrequencies } from './word-frequencies.ts';

/** Spec 8: with a query the search engine returns at most 250 candidates (total stops there). */
export const MAX_CANDIDATES = 250;

/** The cap as a constant of the statement: a generic plan would guess a parameter's LIMIT. */
const CANDIDATES_LIMIT = sql.lit(MAX_CANDIDATES);

const restrictedComments = new StructureKind<boolean>('restricted-comments');

/**
 * Whether the workspace holds any restricted comment, kept in the structure store: only the
 * workspace file's seeds write one (the API's comments are public or internal, and none changes
 * its visibility later), and an apply that writes any bumps config_version. Without any, search
 * leaves out its branch for them, which was half of planning every search (ADR 0038). A deleted
 * ticket's restricted comments may leave it true until the next structure change: a search that
 * looks in vain, never one that misses.
 */
function anyRestrictedComments(ctx: Context): Promise<boolean> {
  return ctx.structure.get(ctx, restrictedComments, '', async () => {
    const { rows } = await sql<{ found: boolean }>`select exists (select 1 from comments where visibility = 'restricted') as found`.execute(
      ctx.db,
    );
    return rows[0]!.found;
  });
}

const TICKET_KEY = /^[A-Z][A-Z0-9]*-\d+$/;

/** The projects a search looks in: the one named, or every project the member may see. */
async function searchedProjects(
  ctx: Context,
  input: SearchQuery,
  scope: TicketScope,
): Promise<{ named: ProjectRow | null; ids: string[] }> {
  const visible = scope.projectIds === null ? null : new Set(scope.projectIds);
  const projects = (await projectsByKey(ctx)).filter((p) => visible === null || visible.has(p.id));
  if (input.project === undefined) return { named: null, ids: projects.map((p) => p.id) };
  const named = resolveName(projects, input.project, { pointer: '/project', what: 'project', names: (p) => [p.key] });
  return { named, ids: [named.id] };
}

/** Labels of the searched projects, so a label nobody uses is 422 listing those that exist, like every name. */
async function labelNamesIn(ctx: Context, projectIds: readonly string[]): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select distinct name from labels where project_id = any(${[...projectIds]}::uuid[]) order by name
  `.execute(ctx.db);
  return rows.map((r) => r.name);
}

/** The filters' conditions, their values bound as the statement is planned (storage/parameter-binding.ts). */
async function filterConditions(ctx: Context, input: SearchQuery, scope: TicketScope, binding: Binding): Promise<RawBuilder<boolean>[]> {
  // Security levels are decided in the query, not read beforehand. A project named is one the
  // member may see (searchedProjects), so its tickets need only the level test: the planner then
  // estimates one project's rows, not a list's, and counts from tickets_project_status_idx.
  const searched = await searchedProjects(ctx, input, scope);
  const conditions: RawBuilder<boolean>[] = searched.named
    ? [sql<boolean>`t.project_id = ${uuidSql(searched.named.id, binding)}`, levelGrantedSql(scope, 't', binding)]
    : [visibleTicketSql(scope, 't', binding)];
  if (input.status !== undefined) {
    const wanted = input.status;
    const statusIds = (await cachedStatusCategories(ctx))
      .filter((s) => (wanted === 'open' ? s.category !== 'done' : s.category === wanted))
      .map((s) => s.id);
    conditions.push(sql<boolean>`t.status_id = any(${uuidListSql(statusIds, binding)})`);
  }
  if (input.assignee !== undefined) {
    if (normalizeName(input.assignee) === 'unassigned') conditions.push(sql<boolean>`t.assignee_id is null`);
    else conditions.push(sql<boolean>`t.assignee_id = ${uuidSql((await resolvePerson(ctx, input.assignee, '/assignee')).id, binding)}`);
  }
  if (input.reporter !== undefined) {
    conditions.push(sql<boolean>`t.reporter_id = ${uuidSql((await resolvePerson(ctx, input.reporter, '/reporter')).id, binding)}`);
  }
  if (input.label !== undefined) {
    const label = resolveName(await labelNamesIn(ctx, searched.ids), normalizeLabel(input.label), {
      pointer: '/label',
      what: 'label',
      names: (l) => [l],
    });
    // The label's ids in the searched projects first, then their tickets by ticket_labels' label
    // index: a join on the name made the count hash every row of ticket_labels (28 ms for one
    // project's label on the bench data; 1.3 ms this way).
    conditions.push(sql<boolean>`t.id in (select tl.ticket_id from ticket_labels tl where tl.label_id = any(array(
      select l.id from labels l where l.project_id = any(${uuidListSql(searched.ids, binding)}) and l.name = ${label})))`);
  }
  if (input.type !== undefined) {
    const typeNames = (await Promise.all(searched.ids.map((id) => projectStructure(ctx, id)))).flatMap((s) => s.ticket_types);
    const type = resolveName(typeNames, input.type, { pointer: '/type', what: 'ticket type', names: (t) => [t] });
    conditions.push(sql<boolean>`t.type_id in (select id from ticket_types where lower(name) = ${textSql(normalizeName(type), binding)})`);
  }
  return conditions;
}

/** A sort that reads the tickets' own columns (relevance is the candidates' rank: candidateOrder). */
type TicketSort = Exclude<NonNullable<SearchQuery['sort']>, 'relevance'>;

function orderBy(sort: TicketSort): RawBuilder<unknown> {
  switch (sort) {
    case 'updated':
      return sql`t.updated_at desc, t.id`;
    case 'created':
      return sql`t.created_at desc, t.id`;
    case 'priority':
      return sql`pr.position asc nulls last, t.updated_at desc, t.id`;
    case 'key':
      return sql`p.key asc, t.number asc`;
  }
}

/**
 * A search of one of a few fixed shapes (which filters, which sort) is sent as a prepared
 * statement: parsed once per connection, and planned once (storage/page-window.ts). That is a
 * search without words, and one whose words are common (below). Other words are planned for on
 * every request (storage/prepared.ts: a generic plan for search by the index was slower).
 */
const PREPARED = sql.raw(PREPARE);

/**
 * How a search with words is sent. For common words (word-frequencies.ts) the match is written as
 * the operator's function, whose estimate does not depend on the words; with the filters' values
 * opaque too (storage/parameter-binding.ts), no plan depends on a value, so the statement is
 * prepared and PostgreSQL keeps its generic plan. The words are then a parameter made a query once
 * per execution (an InitPlan), not once per row read. Other words are planned for on every
 * request: whether the search index or the table is the faster source depends on how common they are.
 */
interface WordsForm {
  prepared: boolean;
  binding: Binding;
  tsquery(words: string): RawBuilder<unknown>;
  matching(tsquery: RawBuilder<unknown>): RawBuilder<boolean>;
  window(limit: number, offset: number): RawBuilder<unknown>;
}

const COMMON_WORDS: WordsForm = {
  prepared: true,
  binding: 'opaque',
  tsquery: (words) => sql`(select to_tsquery('simple', ${words}))`,
  matching: (tsquery) => sql<boolean>`ts_match_vq(t.search_vector, ${tsquery})`,
  window: pageWindow,
};

const OTHER_WORDS: WordsForm = {
  prepared: false,
  binding: 'planned for',
  tsquery: (words) => sql`to_tsquery('simple', ${words})`,
  matching: (tsquery) => sql<boolean>`t.search_vector @@ ${tsquery}`,
  window: (limit, offset) => sql`limit ${limit} offset ${offset}`,
};

/** The same orders over the candidates' own columns (search with a query). */
function candidateOrder(sort: 'relevance' | 'updated'): RawBuilder<unknown> {
  return sort === 'relevance' ? sql`x.rank desc, x.updated_at desc, x.id` : sql`x.updated_at desc, x.id`;
}

const PROJECT_JOIN = sql`join projects p on p.id = t.project_id`;
const PRIORITY_JOIN = sql`left join priorities pr on pr.id = t.priority_id`;

/** Joins only the sort needs, so a page is read in index order where it can be, and planned with fewer joins. */
function sortJoins(sort: TicketSort): RawBuilder<unknown> {
  if (sort === 'priority') return PRIORITY_JOIN;
  return sort === 'key' ? PROJECT_JOIN : sql``;
}

interface PageRow {
  cells: SummaryCells;
  total: number;
}

/**
 * How a page's rows are put in order again: by a ticket sort, over the page's ids joined to their
 * tickets; or by the candidates' own rank and update time (a search by words), with each ticket's
 * cells read by its id. PostgreSQL plans that read as one lookup, not as a join to order: a
 * search is planned on every request, and of its 0.4 ms of planning the join took about 0.16, the
 * lookup about 0.1 (ADR 0038).
 */
type PageOrder = { by: 'tickets'; sort: TicketSort } | { by: 'candidates'; sort: 'relevance' | 'updated' };

/** SQL: the page's rows `x` in their order, with the tickets joined where the order reads them. */
function inPageOrder(order: PageOrder): RawBuilder<unknown> {
  return order.by === 'candidates'
    ? sql`order by ${candidateOrder(order.sort)}`
    : sql`join tickets t on t.id = x.id ${sortJoins(order.sort)} order by ${orderBy(order.sort)}`;
}

/**
 * One page of tickets with what their summaries show, in one query. `page` selects the page's `id`s
 * (with `rank`, `updated_at` and `total` where it has them), and is named `x`.
 */
async function pageRows(ctx: Context, page: RawBuilder<unknown>, order: PageOrder, prepared: boolean): Promise<PageRow[]> {
  // A statement planned for its words on every request calls the check through the function
  // that keeps its own plan (migration 0023), so it does not plan the check's joins each time.
  const { tokenCheck } = ctx;
  const plan = prepared ? 'prepared' : 'planned every time';
  const check = tokenCheck ? sql`, ${tokenCheckColumn(tokenCheck.values, plan)} as token_check` : sql``;
  const cells = order.by === 'candidates' ? sql`(select ${summaryCellsJson} from tickets t where t.id = x.id)` : summaryCellsJson;
  const result = await sql<PageRow & { token_check?: unknown }>`${prepared ? PREPARED : sql``}
    with page as (${page})
    select ${cells} as cells, x.total${check}
    from page x ${inPageOrder(order)}
  `.execute(ctx.db);
  const [first] = result.rows;
  if (first && tokenCheck) tokenCheck.offer(first.token_check);
  return result.rows;
}

/**
 * GET /tickets. With `query`: PostgreSQL full-text search with prefix matching over the ticket's
 * search document, plus restricted comments the member may read, plus the exact key; ranked,
 * cut at 250 candidates, then sorted and paged. Without it the filters alone decide.
 * Visibility is applied in SQL, so hidden tickets never count.
 */
export async function searchTickets(ctx: Context, input: SearchQuery): Promise<TicketSearchResult> {
  const limit = input.limit ?? 20;
  const offset = input.offset ?? 0;
  const scope = await ticketScope(ctx);
  const query = input.query?.trim() ?? '';
  const queryWords = searchWords(query);
  const words = prefixQueryOf(queryWords);
  // For words common enough, the match is one no index serves: the planner then reads the scope's
  // own rows (or the table) until it has the candidates, instead of taking every ticket holding
  // each word from the search index first (word-frequencies.ts). Which tickets match is the same
  // either way; planning was about a fifth of such a search's time in PostgreSQL (ADR 0039).
  const form = words !== null && matchesAreCommon(await wordFrequencies(ctx), queryWords, MAX_CANDIDATES) ? COMMON_WORDS : OTHER_WORDS;
  // a search without words binds its filters as OTHER_WORDS does: as values its plans are made for
  const conditions = await filterConditions(ctx, input, scope, form.binding);
  const where = sql.join(conditions, sql` and `);
  let rows: PageRow[];
  let total: number;

  if (query !== '') {
    const sort = input.sort ?? 'relevance';
    const key = TICKET_KEY.test(query.toUpperCase()) ? query.toUpperCase() : null;
    const tsquery = form.tsquery(words ?? '');
    const matching = form.matching(tsquery);
    // Up to three sources of candidates, each capped: the ticket's document, restricted comments
    // the member may read (when the workspace has any), and the exact key (ranked first so the cap
    // never drops it). Only the first 250 documents the search index yields are ranked: ranking
    // reads each whole document, and a word common to half the workspace would otherwise rank
    // tens of thousands per request.
    const sources: RawBuilder<unknown>[] = [];
    if (words) {
      // Ranked in the scan's own output, which the limit stops after 250 rows: ranked above the
      // limit, each candidate's whole document went up with it into the window that counts them
      // (the statement 5 % faster this way; ADR 0038).
      sources.push(sql`(select t.id, t.updated_at, ts_rank(t.search_vector, ${tsquery}) as rank from tickets t
             where ${matching} and ${where}
             limit ${CANDIDATES_LIMIT})`);
    }
    if (words && (await anyRestrictedComments(ctx))) {
      sources.push(sql`(select t.id, t.updated_at, 0 as rank from tickets t
             where t.id in (select c.ticket_id from comments c join tickets t on t.id = c.ticket_id
                            where c.visibility = 'restricted' and c.search_vector @@ ${tsquery} and ${readableCommentSql(scope)})
               and ${where}
             limit ${CANDIDATES_LIMIT})`);
    }
    // Only for a query that could be a key: the branch, planned for nothing, was a tenth of a
    // search's time in PostgreSQL, which plans a search for its words on every request (ADR 0039).
    if (key !== null) sources.push(sql`(select t.id, t.updated_at, 1000 as rank from tickets t where t.key = ${key} and ${where})`);
    const matches = sources.length
      ? sql.join(sources, sql` union all `)
      : sql`select null::uuid as id, null::timestamptz as updated_at, 0 as rank where false`;
    // One source names each ticket once and at most 250 of them, so it is the candidates as it
    // is: merging it by id and cutting it again planned and ran a hash aggregate and a sort for
    // nothing, about 8 % of PostgreSQL's part of a one-word search (ADR 0038). Several sources may
    // name a ticket twice: its best rank counts.
    const candidates =
      sources.length === 1
        ? sources[0]!
        : sql`select id, max(rank) as rank, max(updated_at) as updated_at
              from (${matches}) m group by id order by max(rank) desc limit ${CANDIDATES_LIMIT}`;
    // Relevance and update order need nothing beyond the candidates; other sorts read their tickets.
    const order: PageOrder = sort === 'relevance' || sort === 'updated' ? { by: 'candidates', sort } : { by: 'tickets', sort };
    rows = await pageRows(
      ctx,
      sql`
        with candidates as (${candidates})
        select x.id, x.rank, x.updated_at, count(*) over () as total
        from candidates x ${inPageOrder(order)}
        ${form.window(limit, offset)}`,
      order,
      form.prepared,
    );
    total = await pageTotal(
      ctx.db,
      rows,
      offset,
      sql<{ total: number }>`
      with matches as (${matches})
      select count(*) as total from (select distinct id from matches limit ${MAX_CANDIDATES}) c`,
    );
  } else {
    const sort = input.sort === undefined || input.sort === 'relevance' ? 'updated' : input.sort;
    const count = sql<{ total: number }>`select count(*) as total from tickets t where ${where}`;
    // The count rides in the page's statement, computed once for it (an uncorrelated subquery):
    // one round trip and one connection per request instead of two side by side.
    rows = await pageRows(
      ctx,
      sql`
        select t.id, (${count}) as total
        from tickets t ${sortJoins(sort)} where ${where}
        order by ${orderBy(sort)} ${pageWindow(limit, offset)}`,
      { by: 'tickets', sort },
      true,
    );
    total = await pageTotal(ctx.db, rows, offset, sql<{ total: number }>`${PREPARED} ${count}`);
  }

  return {
    total,
    limit,
    offset,
    tickets: await summariesOf(
      ctx,
      rows.map((row) => row.cells),
    ),
  };
}
