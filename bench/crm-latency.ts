// node --import tsx bench/crm-latency.ts [--engine postgres|pglite] [--requests 300]
// The CRM's latency target (ADR 0046): contact search over 50,000 contacts, p95 under 50 ms on PostgreSQL.
// autocannon reports p50/p99 of a saturated server; this times requests one at a time (the latency
// one agent sees), over real HTTP, after the CRM scenarios' seed (bench/scenarios/crm.ts).
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { createPersonalToken } from '../src/auth/personal-tokens.ts';
import { openDatabase } from '../src/storage/database.ts';
import { prepareWorkspace } from '../src/workspace/bootstrap.ts';
import { parseWorkspaceYaml } from '../src/workspace/parse.ts';
import { pgliteTarget, postgresTarget } from './lib/target.ts';
import { scenarios } from './scenarios/crm.ts';

const { values: args } = parseArgs({
  options: { engine: { type: 'string', default: 'postgres' }, requests: { type: 'string', default: '300' } },
});
const requests = Number(args.requests);
const target = args.engine === 'pglite' ? pgliteTarget() : await postgresTarget();
const database = await openDatabase(target.target);
try {
  const file = fs.readFileSync(new URL('./fixtures/workspace.yaml', import.meta.url), 'utf8');
  await prepareWorkspace(database.db, { demo: false, initialWorkspace: parseWorkspaceYaml(file, 'bench/fixtures/workspace.yaml') });
  const member = await database.db.selectFrom('members').select('id').where('email', '=', 'agent@bench.example').executeTakeFirstOrThrow();
  const { secret } = await createPersonalToken(database.db, { memberId: member.id, name: 'bench', access: 'write', lifetimeDays: 30 });
  const started = Date.now();
  const env = { token: secret, memberId: member.id };
  for (const scenario of scenarios) Object.assign(env, await scenario.seed?.(database.db, env));
  console.error(`seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const app = await buildApp({ config: { publicUrl: 'http://127.0.0.1', logLevel: 'warn' }, database, rateLimit: Number.MAX_SAFE_INTEGER });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const rows: string[] = [];
  for (const scenario of scenarios) {
    const request = scenario.request(env);
    const send = async () => {
      const response = await fetch(`${url}${request.path}`, {
        method: request.method,
        headers: { authorization: `Bearer ${secret}`, ...(request.body ? { 'content-type': 'application/json' } : {}) },
        body: request.body ? JSON.stringify(request.body) : undefined,
      });
      await response.arrayBuffer();
      if (response.status >= 300) throw new Error(`${scenario.name}: ${response.status}`);
    };
    for (let i = 0; i < 20; i += 1) await send(); // warm: JIT, plans, pool
    const times: number[] = [];
    for (let i = 0; i < requests; i += 1) {
      const at = performance.now();
      await send();
      times.push(performance.now() - at);
    }
    times.sort((a, b) => a - b);
    const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
    rows.push(`| ${args.engine} | ${scenario.name} | ${requests} | ${q(0.5)} | ${q(0.95)} | ${q(0.99)} |`);
  }
  await app.close();
  console.log(
    ['| Engine | Scenario | requests, one at a time | p50 ms | p95 ms | p99 ms |', '|---|---|--:|--:|--:|--:|', ...rows].join('\n'),
  );
} finally {
  await database.close();
  await target.dispose();
}
