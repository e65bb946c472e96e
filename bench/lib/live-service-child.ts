// The Atrium service for the live-events benchmark, in its own process: the bench workspace, a
// write token for the bench agent, one ticket everyone watches on its page, and a browser session
// for each developer (the page log-in, made here as the log-in form would), then it listens and
// prints {url, token, key, cookies}.
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { buildApp } from '../../src/app.ts';
import { createPersonalToken } from '../../src/auth/personal-tokens.ts';
import { hashSecret } from '../../src/auth/token-format.ts';
import { openDatabase, type DatabaseTarget } from '../../src/storage/database.ts';
import { prepareWorkspace } from '../../src/workspace/bootstrap.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';

const BENCH_WORKSPACE = new URL('../fixtures/workspace.yaml', import.meta.url);

const target = JSON.parse(process.argv[2]!) as DatabaseTarget;
const database = await openDatabase(target);
await prepareWorkspace(database.db, {
  demo: false,
  initialWorkspace: parseWorkspaceYaml(fs.readFileSync(BENCH_WORKSPACE, 'utf8'), 'bench/fixtures/workspace.yaml'),
});
const members = await database.db.selectFrom('members').select(['id', 'email']).where('email', 'like', '%@bench.example').execute();
const agent = members.find((m) => m.email === 'agent@bench.example')!;
const { secret } = await createPersonalToken(database.db, { memberId: agent.id, name: 'bench', access: 'write', lifetimeDays: 30 });
const cookies: string[] = [];
for (const member of members.filter((m) => /^(dev\d|agent)@/.test(m.email ?? ''))) {
  const cookie = randomBytes(32).toString('base64url');
  await database.db
    .insertInto('web_sessions')
    .values({ id_hash: hashSecret(cookie), member_id: member.id, expires_at: new Date(Date.now() + 12 * 3600_000).toISOString() })
    .execute();
  cookies.push(`atrium_session=${cookie}`);
}

const app = await buildApp({ config: { publicUrl: 'http://127.0.0.1', logLevel: 'warn' }, database, rateLimit: Number.MAX_SAFE_INTEGER });
const url = await app.listen({ port: 0, host: '127.0.0.1' });
const created = await app.inject({ method: 'POST', url: '/api/v1/tickets', headers: { authorization: `Bearer ${secret}` }, payload: { project: 'ATR', summary: 'Watched by every open page' } });
process.stdout.write(`${JSON.stringify({ url, token: secret, key: created.json().key, cookies })}\n`);

process.once('SIGTERM', async () => {
  await app.drain(2000);
  await app.close();
  await database.close();
  process.exit(0);
});
