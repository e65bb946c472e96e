// npm run bench:data [-- --data-dir DIR | --database-url URL] [--tickets 100000 --projects 20
//   --members 500 --comments 300000 --worklogs 50000]
// Builds the benchmark's large workspace: the bench workspace file grown to `members` people and
// `projects` projects, then tickets, labels, comments and worklogs written in bulk by SQL
// (generate_series) in one transaction, the tables' secondary indexes built after the rows, with a
// progress bar on stderr.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../src/storage/database.ts';
import type { DB } from '../src/storage/schema.ts';
import { applyWorkspace } from '../src/workspace/apply.ts';
import { prepareWorkspace } from '../src/workspace/bootstrap.ts';
import { parseWorkspaceYaml } from '../src/workspace/parse.ts';
import type { WorkspaceFile } from '../src/workspace/schema.ts';
import { withIndexesBuiltAfter } from './lib/deferred-indexes.ts';

export interface DataSize {
  tickets: number;
  projects: number;
  members: number;
  comments: number;
  worklogs: number;
}

export const FULL_SIZE: DataSize = { tickets: 100_000, projects: 20, members: 500, comments: 300_000, worklogs: 50_000 };

const BENCH_WORKSPACE = new URL('./fixtures/workspace.yaml', import.meta.url);
const LABELS = ['backend', 'frontend', 'performance', 'security', 'customer-request', 'tech-debt', 'docs', 'ux'];
const WORDS = (
  'payment gateway refund invoice login session token oauth search index query timeout proxy cache ' +
  'database migration replica backup restore export import report dashboard chart widget board sprint ' +
  'backlog column filter sort label comment mention notification email webhook integration calendar ' +
  'upload attachment preview thumbnail mobile desktop browser firefox chrome safari android ios ' +
  'memory leak crash freeze slow latency throughput error warning retry queue worker scheduler cron ' +
  'billing subscription plan seat license customer account profile avatar password reset invite ' +
  'permission role group admin audit history version release deploy rollback config setting flag ' +
  'translation locale timezone date format currency number unicode emoji markdown table link image'
).split(' ');

/** The bench workspace file grown to the wanted number of members and projects. */
export function benchWorkspace(size: DataSize): WorkspaceFile {
  const file = parseWorkspaceYaml(fs.readFileSync(BENCH_WORKSPACE, 'utf8'), 'bench/fixtures/workspace.yaml') as WorkspaceFile;
  const members = [...(file.members ?? [])];
  for (let i = members.length; i < size.members; i += 1) members.push({ name: `Member ${i}`, email: `member${i}@bench.example` });
  const everyone = members.map((m) => m.email!).filter(Boolean);
  const projects = [...(file.projects ?? [])].map((p) => ({ ...p, labels: LABELS }));
  for (let i = projects.length; i < size.projects; i += 1) {
    projects.push({
      key: `P${String(i).padStart(2, '0')}`,
      name: `Project ${i}`,
      kind: 'software',
      workflow: 'Delivery',
      ticket_types: ['Story', 'Task', 'Bug'],
      resolutions: [{ name: 'Done', default: true }, "Won't Do"],
      components: ['API', 'Web', 'Storage'],
      labels: LABELS,
      ...(i === projects.length ? { security_levels: [{ name: 'Confidential', groups: ['Developers'] }] } : {}),
      roles: [{ role: 'Developer', groups: ['Developers', 'Everyone'] }],
    });
  }
  // The last project's workflow has a transition back into its own status, so a benchmark can
  // take the same transition on one ticket again and again.
  const loop = projects.at(-1);
  if (loop && projects.length > (file.projects ?? []).length) loop.workflow = 'Bench loop';
  return {
    ...file,
    workflows: [
      ...(file.workflows ?? []),
      {
        name: 'Bench loop',
        statuses: [
          { name: 'Open', category: 'todo' },
          { name: 'Closed', category: 'done' },
        ],
        transitions: [
          { name: 'Touch', from: ['Open'], to: 'Open' },
          { name: 'Close', from: 'any', to: 'Closed', screen: { resolution: true } },
        ],
      },
    ],
    members,
    groups: [...(file.groups ?? []), { name: 'Everyone', members: everyone }],
    projects: projects.slice(0, size.projects),
  };
}

/** The tables the load writes; their secondary indexes are built once it is done. */
const LOADED_TABLES = ['tickets', 'ticket_labels', 'ticket_watchers', 'comments', 'worklogs'];
/**
 * Indexes the load reads by, kept while it writes: the rank trigger's max(rank) on each new
 * ticket, and the comments and worklogs of a ticket for its search document and time spent.
 */
const READ_WHILE_LOADING = ['tickets_rank_idx', 'comments_ticket_idx', 'worklogs_ticket_idx'];

export type Progress = (done: number, total: number, what: string) => void;

export function progressBar(stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = Date.now();
  return (done, total, what) => {
    const width = 30;
    const filled = Math.round((done / Math.max(total, 1)) * width);
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    stream.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.round((done / Math.max(total, 1)) * 100)).padStart(3)}% ${what.padEnd(40)} ${seconds}s`,
    );
    if (done >= total) stream.write('\n');
  };
}

const words = sql.raw(`array[${WORDS.map((w) => `'${w}'`).join(',')}]`);
/** `count` random words, re-drawn per row (the `+ 0 * n` ties the subquery to the row). */
const sentence = (count: string) =>
  sql`(select string_agg((${words})[1 + floor(random() * ${WORDS.length})::int], ' ') from generate_series(1, ${sql.raw(count)}))`;

async function fillProject(
  db: Kysely<DB>,
  projectId: string,
  size: { tickets: number; comments: number; worklogs: number },
  memberIds: string[],
) {
  const project = await db
    .selectFrom('projects')
    .select(['key', 'next_ticket_number'])
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow();
  // tickets already there (another scenario's seed) keep their numbers; ours follow them
  const first = project.next_ticket_number;
  const types = await db
    .selectFrom('ticket_types')
    .select(['id', 'workflow_id'])
    .where('project_id', '=', projectId)
    .orderBy('position')
    .execute();
  const statuses = await db
    .selectFrom('statuses')
    .select(['id', 'category'])
    .where('workflow_id', '=', types[0]!.workflow_id)
    .orderBy('position')
    .execute();
  const done = statuses.find((s) => s.category === 'done')!.id;
  const priorities = (await db.selectFrom('priorities').select('id').where('project_id', '=', projectId).execute()).map((p) => p.id);
  const resolution =
    (await db.selectFrom('resolutions').select('id').where('project_id', '=', projectId).where('is_default', '=', true).executeTakeFirst())
      ?.id ?? null;
  const labels = (await db.selectFrom('labels').select('id').where('project_id', '=', projectId).execute()).map((l) => l.id);
  const level = (await db.selectFrom('security_levels').select('id').where('project_id', '=', projectId).executeTakeFirst())?.id ?? null;
  const typeIds = types.map((t) => t.id);
  const statusIds = statuses.map((s) => s.id);
  const pick = (array: string[]) => sql`(${array}::uuid[])[1 + floor(random() * ${array.length})::int]`;

  await sql`
    insert into tickets (project_id, number, key, summary, type_id, status_id, priority_id, resolution_id, assignee_id, reporter_id,
                         security_level_id, description_format, description_text, created_at, updated_at, resolved_at,
                         original_estimate_seconds, remaining_estimate_seconds)
    select ${projectId}, n, ${project.key} || '-' || n, initcap(${sentence('4 + (n % 5) + 0 * n')}),
           type_id, status_id, ${pick(priorities)},
           case when status_id = ${done} then ${resolution}::uuid end,
           case when random() < 0.8 then ${pick(memberIds)} end, ${pick(memberIds)},
           case when ${level}::uuid is not null and n % 50 = 0 then ${level}::uuid end,
           'markdown', ${sentence('20 + (n % 40) + 0 * n')}, created, created + random() * interval '60 days',
           case when status_id = ${done} then created + interval '1 day' end,
           estimate, estimate
    from (
      -- every project's first ticket starts in its workflow's first status: the loop scenario takes
      -- Touch on one and would only measure refusals if it were drawn closed
      select n, ${pick(typeIds)} as type_id, case when n = 1 then ${statusIds[0]}::uuid else ${pick(statusIds)} end as status_id,
             now() - interval '2 years' + random() * interval '700 days' as created,
             case when random() < 0.4 then (1 + floor(random() * 40)::int) * 3600 end as estimate
      from generate_series(${first}::int, ${first + size.tickets - 1}::int) n
    ) g
  `.execute(db);
  await sql`update projects set next_ticket_number = ${first + size.tickets} where id = ${projectId}`.execute(db);
  await sql`insert into ticket_watchers (ticket_id, member_id) select id, reporter_id from tickets where project_id = ${projectId} and number >= ${first} and reporter_id is not null on conflict do nothing`.execute(
    db,
  );
  await sql`
    insert into ticket_labels (ticket_id, label_id)
    select distinct t.id, (${labels}::uuid[])[1 + floor(random() * ${labels.length})::int + 0 * k]
    from tickets t, generate_series(1, 2) k where t.project_id = ${projectId} and t.number >= ${first} and random() < 0.35
    on conflict do nothing
  `.execute(db);
  const perTicket = size.comments / Math.max(size.tickets, 1);
  await sql`
    insert into comments (ticket_id, author_id, body_text, visibility, created_at)
    select t.id, ${pick(memberIds)}, ${sentence('6 + (k % 20) + 0 * length(t.key)')},
           case when random() < 0.05 then 'internal' else 'public' end,
           t.created_at + random() * interval '30 days'
    from tickets t, generate_series(1, ${Math.ceil(perTicket)}) k
    where t.project_id = ${projectId} and t.number >= ${first} and (k <= ${Math.floor(perTicket)} or random() < ${perTicket - Math.floor(perTicket)})
  `.execute(db);
  await sql`
    insert into worklogs (ticket_id, author_id, started_at, time_spent_seconds, created_at)
    select t.id, ${pick(memberIds)}, t.created_at + random() * interval '20 days', (1 + floor(random() * 32)::int) * 900, t.created_at + interval '20 days'
    from tickets t where t.project_id = ${projectId} and t.number >= ${first} and random() < ${size.worklogs / Math.max(size.tickets, 1)}
  `.execute(db);
  // one rewrite of each new ticket, not two: its time spent, its label names and its search document together
  await sql`
    with spent as (
      select w.ticket_id, sum(w.time_spent_seconds)::int as spent from worklogs w
      join tickets x on x.id = w.ticket_id where x.project_id = ${projectId} and x.number >= ${first} group by w.ticket_id
    )
    update tickets t set time_spent_seconds = s.spent,
           remaining_estimate_seconds = case when s.spent is null or t.remaining_estimate_seconds is null then t.remaining_estimate_seconds
                                             else greatest(t.remaining_estimate_seconds - s.spent, 0) end,
           label_names = coalesce((select array_agg(l.name order by l.name) from ticket_labels tl join labels l on l.id = tl.label_id
                                   where tl.ticket_id = t.id), '{}'),
           search_vector = ticket_search_document(t.id)
    from tickets x left join spent s on s.ticket_id = x.id
    where x.id = t.id and x.project_id = ${projectId} and x.number >= ${first}
  `.execute(db);
}

/**
 * Fills a database (already migrated, with the bench workspace's structure or none) with the
 * large data set; does nothing when tickets already exist. Returns how many rows it wrote.
 */
export async function generateData(db: Kysely<DB>, size: DataSize = FULL_SIZE, progress: Progress = () => {}) {
  await prepareWorkspace(db, { demo: false, initialWorkspace: benchWorkspace(size) });
  await applyWorkspace(db, benchWorkspace(size));
  // generated once: a database that already holds the data set is left as it is
  const existing = await db.selectFrom('tickets').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  if (Number(existing.n) >= size.tickets) return { skipped: true };
  const memberIds = (await db.selectFrom('members').select('id').where('active', '=', true).execute()).map((m) => m.id);
  const projects = await db.selectFrom('projects').select(['id', 'key']).orderBy('position').execute();
  const each = {
    tickets: Math.floor(size.tickets / projects.length),
    comments: Math.floor(size.comments / projects.length),
    worklogs: Math.floor(size.worklogs / projects.length),
  };
  // One transaction: a failed load leaves neither half a data set nor dropped indexes behind.
  await db.transaction().execute((trx) =>
    withIndexesBuiltAfter(trx, LOADED_TABLES, READ_WHILE_LOADING, async () => {
      for (const [i, project] of projects.entries()) {
        progress(i, projects.length, `project ${project.key}: ${each.tickets} tickets`);
        await fillProject(trx, project.id, each, memberIds);
      }
      progress(projects.length, projects.length + 1, 'indexes');
    }),
  );
  progress(projects.length, projects.length, 'vacuum analyze');
  // A workspace that has lived a while has been vacuumed: its visibility map lets counts be
  // answered from indexes alone, as they are in production, not from every row just written.
  await sql`vacuum analyze`.execute(db);
  return { skipped: false };
}

async function main() {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string', default: 'bench/data' },
      'database-url': { type: 'string' },
      tickets: { type: 'string' },
      projects: { type: 'string' },
      members: { type: 'string' },
      comments: { type: 'string' },
      worklogs: { type: 'string' },
    },
  });
  const size: DataSize = {
    tickets: Number(values.tickets ?? FULL_SIZE.tickets),
    projects: Number(values.projects ?? FULL_SIZE.projects),
    members: Number(values.members ?? FULL_SIZE.members),
    comments: Number(values.comments ?? FULL_SIZE.comments),
    worklogs: Number(values.worklogs ?? FULL_SIZE.worklogs),
  };
  const url = values['database-url'];
  if (!url) fs.mkdirSync(path.resolve(values['data-dir']!), { recursive: true });
  const database = await openDatabase(url ? { engine: 'postgres', url } : { engine: 'pglite', dataDir: path.resolve(values['data-dir']!) });
  const started = Date.now();
  try {
    const result = await generateData(database.db, size, progressBar());
    const counts = await sql<{ tickets: number; comments: number; worklogs: number; members: number }>`
      select (select count(*) from tickets) as tickets, (select count(*) from comments) as comments,
             (select count(*) from worklogs) as worklogs, (select count(*) from members) as members`.execute(database.db);
    console.error(
      `${result.skipped ? 'already generated' : 'generated'} in ${((Date.now() - started) / 1000).toFixed(0)} s: ${JSON.stringify(counts.rows[0])}`,
    );
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
