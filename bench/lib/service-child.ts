// The Atrium service for one benchmark run, in its own process, on a database the seed child has
// prepared (bench/lib/seed-child.ts): it only opens the database, builds the app and listens, so
// its peak RSS is the server's own. Prints {url, env} once it listens.
import { buildApp } from '../../src/app.ts';
import { openDatabase, type DatabaseTarget } from '../../src/storage/database.ts';
import type { BenchEnv } from '../scenarios/scenario.ts';

const target = JSON.parse(process.argv[2]!) as DatabaseTarget;
const env = JSON.parse(process.argv[3]!) as BenchEnv;
const database = await openDatabase(target);
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
