// The Atrium service for one benchmark run, in its own process, on a database the seed child has
// prepared (bench/lib/seed-child.ts): it only opens the database, builds the app and listens, so
// its peak RSS is the server's own. Prints {url, env} once it listens. Plain JavaScript that loads
// the service from where bin/atrium.js runs it (`dist/`), so that no TypeScript stripper is in the
// process the bench measures.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiledSources, SOURCES } from '../../bin/compiled-sources.js';

const compiled = compiledSources();
const load = (module) => import(pathToFileURL(compiled ? path.join(compiled, `${module}.js`) : path.join(SOURCES, `${module}.ts`)).href);
const { buildApp } = await load('app');
const { openDatabase } = await load('storage/database');

const target = JSON.parse(process.argv[2]);
const env = JSON.parse(process.argv[3]);
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
