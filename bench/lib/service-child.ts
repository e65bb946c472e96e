// The Atrium service for one benchmark run, in its own process: the bench workspace applied, a
// write token minted, every scenario's seed run, then it listens and prints {url, env}.
import fs from 'node:fs';
import { buildApp } from '../../src/app.ts';
import { createPersonalToken } from '../../src/auth/personal-tokens.ts';
import { openDatabase, type DatabaseTarget } from '../../src/storage/database.ts';
import { prepareWorkspace } from '../../src/workspace/bootstrap.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import type { BenchEnv } from '../scenarios/scenario.ts';
import { loadScenarios } from './load-scenarios.ts';

const BENCH_WORKSPACE = new URL('../fixtures/workspace.yaml', import.meta.url);
const BENCH_MEMBER = 'agent@bench.example';

const target = JSON.parse(process.argv[2]!) as DatabaseTarget;
const database = await openDatabase(target);
await prepareWorkspace(database.db, {
  demo: false,
  initialWorkspace: parseWorkspaceYaml(fs.readFileSync(BENCH_WORKSPACE, 'utf8'), 'bench/fixtures/workspace.yaml'),
});
const member = await database.db.selectFrom('members').select('id').where('email', '=', BENCH_MEMBER).executeTakeFirstOrThrow();
const { secret } = await createPersonalToken(database.db, { memberId: member.id, name: 'bench', access: 'write', lifetimeDays: 30 });
const env: BenchEnv = { token: secret, memberId: member.id };
for (const scenario of await loadScenarios()) Object.assign(env, await scenario.seed?.(database.db, env));

const app = await buildApp({
  config: { publicUrl: 'http://127.0.0.1', logLevel: 'warn' },
  database,
  // The load comes from one token: the per-token limit (600 a minute) would measure the limiter.
  rateLimit: Number.MAX_SAFE_INTEGER,
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url, env })}\n`);

process.once('SIGTERM', async () => {
  await app.close();
  await database.close();
  process.exit(0);
});
