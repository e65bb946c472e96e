// The bare baseline: a plain Fastify app with one route per scenario doing that scenario's single
// SQL read over the same database layer (Kysely, same pool), with no auth, no registry, no schema.
import Fastify from 'fastify';
import { openDatabase, type DatabaseTarget } from '../../src/storage/database.ts';
import type { BenchEnv } from '../scenarios/scenario.ts';
import { loadScenarios } from './load-scenarios.ts';

const target = JSON.parse(process.argv[2]!) as DatabaseTarget;
const env = JSON.parse(process.argv[3]!) as BenchEnv;
const database = await openDatabase(target);
const app = Fastify({ logger: false });
const scenarios = await loadScenarios();
scenarios.forEach((scenario, index) => {
  const read = scenario.baseline;
  if (!read) return;
  app.get(`/baseline/${index}`, async () => (await read(database.db, env)) ?? null);
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url })}\n`);

process.once('SIGTERM', async () => {
  await app.close();
  await database.close();
  process.exit(0);
});
