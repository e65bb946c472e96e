import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface PgBouncer {
  version: string;
  /** `postgres://postgres@127.0.0.1:<port>/`: a database's name goes in the path. */
  url: string;
  /** PgBouncer's own process, for its CPU time. */
  pid: number;
  stop(): Promise<void>;
}

/** PgBouncer's version (`1.18.0`), from `pgbouncer --version`. */
export function pgbouncerVersion(bin: string): string {
  return execFileSync(bin, ['--version'], { encoding: 'utf8' }).split('\n')[0]!.split(' ')[1]!;
}

/** Whether this PgBouncer keeps each client's prepared statements (`max_prepared_statements`, 1.21 and later). */
export function keepsPrepared(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 1 || (major === 1 && minor >= 21);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * PgBouncer in transaction mode in front of PostgreSQL on 127.0.0.1:5432, as .ci/pooler.sh runs
 * it, from a configuration in a temporary folder; `preparedStatements` sets
 * max_prepared_statements (0: names pass through). As root it runs as `postgres`: it refuses root.
 */
export async function startPgBouncer(bin: string, preparedStatements: number, poolSize = 10): Promise<PgBouncer> {
  const version = pgbouncerVersion(bin);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-pgbouncer-'));
  const lines = [
    '[databases]',
    '* = host=127.0.0.1 port=5432',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${dir}/users.txt`,
    'pool_mode = transaction',
    `default_pool_size = ${poolSize}`,
    'max_client_conn = 1000',
    `logfile = ${dir}/pgbouncer.log`,
    `pidfile = ${dir}/pgbouncer.pid`,
    ...(keepsPrepared(version) ? [`max_prepared_statements = ${preparedStatements}`] : []),
  ];
  fs.writeFileSync(path.join(dir, 'pgbouncer.ini'), `${lines.join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'users.txt'), '"postgres" ""\n');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['-R', 'postgres', dir]);
  const command = asRoot
    ? ['runuser', '-u', 'postgres', '--', bin, path.join(dir, 'pgbouncer.ini')]
    : [bin, path.join(dir, 'pgbouncer.ini')];
  const child = spawn(command[0]!, command.slice(1), { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let tries = 0; tries < 100 && !(await answers(port)); tries++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!(await answers(port))) {
    const log = fs.existsSync(path.join(dir, 'pgbouncer.log')) ? fs.readFileSync(path.join(dir, 'pgbouncer.log'), 'utf8').slice(-1000) : '';
    child.kill();
    throw new Error(`PgBouncer ${version} did not start on port ${port}: ${log}`);
  }
  const pid = Number(fs.readFileSync(path.join(dir, 'pgbouncer.pid'), 'utf8').trim());
  return {
    version,
    url: `postgres://postgres@127.0.0.1:${port}/`,
    pid,
    async stop() {
      process.kill(pid, 'SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
