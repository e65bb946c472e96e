// The Atrium service for the live-events benchmark, in its own process: the bench workspace (with
// `members` more developers, named in the workspace file like the others), a write token for the
// bench agent, one ticket everyone looks at on its page and `watchers` of them watch, and a browser
// session for each developer (the page log-in, made here as the log-in form would), then it
// listens and prints {url, token, key, cookies}.
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import { buildApp } from '../../src/app.ts';
import { createPersonalToken } from '../../src/auth/personal-tokens.ts';
import { hashSecret } from '../../src/auth/token-format.ts';
import { openDatabase, type DatabaseTarget } from '../../src/storage/database.ts';
import { prepareWorkspace } from '../../src/workspace/bootstrap.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';

const BENCH_WORKSPACE = new URL('../fixtures/workspace.yaml', import.meta.url);

const target = JSON.parse(process.argv[2]!) as DatabaseTarget;
const extra = JSON.parse(process.argv[3] ?? '{}') as { members?: number; watchers?: number };
const database = await openDatabase(target);
const workspace = parseWorkspaceYaml(fs.readFileSync(BENCH_WORKSPACE, 'utf8'), 'bench/fixtures/workspace.yaml') as {
  members: { name: string; email: string }[];
  groups: { name: string; members: string[] }[];
};
const extraEmails = Array.from({ length: extra.members ?? 0 }, (_, i) => `dev${i + 100}@bench.example`);
workspace.members.push(...extraEmails.map((email, i) => ({ name: `Developer ${i + 100}`, email })));
workspace.groups.find((g) => g.name === 'Developers')!.members.push(...extraEmails);
await prepareWorkspace(database.db, { demo: false, initialWorkspace: workspace });
const members = await database.db.selectFrom('members').select(['id', 'email']).where('email', 'like', '%@bench.example').execute();
const agent = members.find((m) => m.email === 'agent@bench.example')!;
const { secret } = await createPersonalToken(database.db, { memberId: agent.id, name: 'bench', access: 'write', lifetimeDays: 30 });
const cookies: string[] = [];
for (const member of members.filter((m) => /^(dev\d+|agent)@/.test(m.email ?? ''))) {
  const cookie = randomBytes(32).toString('base64url');
  await database.db
    .insertInto('web_sessions')
    .values({ id_hash: hashSecret(cookie), member_id: member.id, expires_at: new Date(Date.now() + 12 * 3600_000).toISOString() })
    .execute();
  cookies.push(`atrium_session=${cookie}`);
}

const app = await buildApp({ config: { publicUrl: 'http://127.0.0.1', logLevel: 'warn' }, database, rateLimit: Number.MAX_SAFE_INTEGER });
// The bench's own probe (not the service's): memory after a full collection, so that what the open
// pages hold is not lost in garbage not yet collected.
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;
app.get('/bench/memory', async () => {
  collect();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
const created = await app.inject({
  method: 'POST',
  url: '/api/v1/tickets',
  headers: { authorization: `Bearer ${secret}` },
  payload: { project: 'ATR', summary: 'Watched by every open page' },
});
const key = created.json().key as string;
const watching = members.filter((m) => extraEmails.includes(m.email ?? '')).slice(0, extra.watchers ?? 0);
if (watching.length) {
  const ticket = await database.db.selectFrom('tickets').select('id').where('key', '=', key).executeTakeFirstOrThrow();
  await database.db
    .insertInto('ticket_watchers')
    .values(watching.map((m) => ({ ticket_id: ticket.id, member_id: m.id })))
    .execute();
}
process.stdout.write(`${JSON.stringify({ url, token: secret, key, cookies })}\n`);

process.once('SIGTERM', async () => {
  await app.drain(2000);
  await app.close();
  await database.close();
  process.exit(0);
});
