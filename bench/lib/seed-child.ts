// Prepares the database for one benchmark run in a process of its own: the bench workspace
// applied, a write token minted, every scenario's seed run (100,000 tickets, 300,000 comments…).
// It closes the database, prints {env, peakRss} as one JSON line and exits, so the service child
// that follows measures the server's memory, not the data generator's (ADR 0046).
import fs from 'node:fs';
import { createPersonalToken } from '../../src/auth/personal-tokens.ts';
import { openDatabase, type DatabaseTarget } from '../../src/storage/database.ts';
import { prepareWorkspace } from '../../src/workspace/bootstrap.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import type { BenchEnv } from '../scenarios/scenario.ts';
import { peakRssOf } from './child.ts';
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
// Closed before printing: PGlite allows one process per folder, and the service opens it next.
await database.close();
// Its own peak RSS goes with it: the harness cannot read /proc once this process has exited.
process.stdout.write(`${JSON.stringify({ env, peakRss: peakRssOf(process.pid) })}\n`);
process.exit(0);
