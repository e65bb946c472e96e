import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config.ts';
import type { RunningService } from '../main.ts';
import { prepareDataDir } from '../storage/data-dir.ts';
import { DataDirBusyError } from '../storage/lock.ts';
import { parseOptions } from './args.ts';
import { socketPathProblem } from './socket-path.ts';
import { CommandError } from './errors.ts';
import { checkListen, listenProblem } from './listen-check.ts';
import { checkPostgres } from './postgres-check.ts';

/**
 * The first SIGINT or SIGTERM: stop cleanly (once start-up has finished, if it has not). A second
 * one, whether start-up is stuck or closing is slow, exits at once; the lock file goes with the
 * process.
 */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      const force = () => process.exit(1);
      process.once('SIGINT', force);
      process.once('SIGTERM', force);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** `atrium serve`: listens until SIGINT or SIGTERM, then closes the socket, the server, the database and the lock. */
export async function serve(argv: readonly string[], config: Config): Promise<void> {
  parseOptions('serve', argv, {});
  const onPglite = config.databaseUrl === null;
  const problem = onPglite ? socketPathProblem(config.dataDir) : null;
  if (problem) throw new ConfigError(problem);
  // Each in a second or so, before a database is opened, created or seeded.
  await checkListen(config.host, config.port);
  if (config.databaseUrl !== null) await checkPostgres(config.databaseUrl);
  if (config.databaseDirectUrl !== null) await checkPostgres(config.databaseDirectUrl, 'DATABASE_DIRECT_URL');
  if (onPglite) prepareDataDir(config.dataDir);
  // the service's modules only once nothing above refused: a refusal is said in well under a second
  const [{ startService }, { listenControlSocket }, { serveBanner }] = await Promise.all([
    import('../main.ts'),
    import('./control-socket.ts'),
    import('./banner.ts'),
  ]);
  // Listening before start-up: a Ctrl+C while the database opens stops cleanly once it has.
  const stopped = untilSignal();
  let service: RunningService;
  try {
    service = await startService(config, {
      controlSocket: ({ database, log }) => (onPglite ? listenControlSocket(config.dataDir, database, log) : Promise.resolve(null)),
    });
  } catch (error) {
    if (error instanceof DataDirBusyError) throw new CommandError(`serve: ${error.message}; is the server already running?`);
    // Taken between the check and the listen: the same line as the check's.
    const syscall = (error as NodeJS.ErrnoException).syscall;
    const listening = syscall === 'listen' || syscall === 'getaddrinfo' ? listenProblem(error, config.host, config.port) : null;
    if (listening) throw new ConfigError(listening);
    throw error;
  }
  try {
    const banner = await serveBanner(service.database.db, config, service.address);
    process.stderr.write(`\n${banner.join('\n')}\n\n`);
  } catch (error) {
    service.app.log.error({ err: error }, 'could not print the start-up banner');
  }
  const signal = await stopped;
  service.app.log.info({ signal }, 'stopping');
  await service.stop();
}
