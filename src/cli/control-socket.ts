import fs from 'node:fs';
import net from 'node:net';
import type { Log } from '../core/context.ts';
import type { Database } from '../storage/database.ts';
import { databaseCommands } from './database-commands.ts';
import { controlSocketPath, socketPathProblem } from './socket-path.ts';
import { CommandError, oneLine } from './errors.ts';

/**
 * PGlite lets one process open a data folder. While `atrium serve` holds it, CLI commands are
 * sent to the server through this Unix socket in the folder (only its owner may open it): one
 * JSON request per connection, `{command, args}`, answered `{ok, output}` or `{ok: false, error}`.
 */
export type ControlRequest = { command: string; args: string[] };
export type ControlAnswer = { ok: true; output: string } | { ok: false; error: string };

const MAX_REQUEST_BYTES = 1024 * 1024;

function isRequest(value: unknown): value is ControlRequest {
  const v = value as ControlRequest | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.command === 'string' &&
    Array.isArray(v.args) &&
    v.args.every((a) => typeof a === 'string')
  );
}

async function answer(database: Database, log: Log, text: string): Promise<ControlAnswer> {
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    return { ok: false, error: 'the request is not JSON' };
  }
  if (!isRequest(request)) return { ok: false, error: 'a request is {"command": string, "args": [string, …]}' };
  const command = databaseCommands.get(request.command);
  if (!command) return { ok: false, error: `unknown command "${request.command}"` };
  try {
    const output = await command.execute(database.db, request.args, { opening: null, pglite: database.pglite });
    log.info({ command: command.name }, 'command line request done');
    return { ok: true, output };
  } catch (error) {
    const message = oneLine(error);
    if (message.startsWith('unexpected error')) log.error({ err: error, command: command.name }, 'command line request failed');
    else log.info({ command: command.name }, 'command line request refused');
    return { ok: false, error: message };
  }
}

export interface ControlSocket {
  path: string;
  close(): Promise<void>;
}

/** Listens on DATA_DIR/atrium.sock (mode 0600); a stale socket left by a killed server is replaced. */
export async function listenControlSocket(dataDir: string, database: Database, log: Log): Promise<ControlSocket> {
  const problem = socketPathProblem(dataDir);
  if (problem) throw new CommandError(problem);
  const socketPath = controlSocketPath(dataDir);
  // We hold the data folder's lock, so a socket file here is a dead server's.
  fs.rmSync(socketPath, { force: true });
  // Half-open: the client ends its side after the request, and still reads the answer.
  const server = net.createServer({ allowHalfOpen: true }, (connection) => {
    const chunks: Buffer[] = [];
    let size = 0;
    connection.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) connection.destroy();
      else chunks.push(chunk);
    });
    connection.on('end', () => {
      void answer(database, log, Buffer.concat(chunks).toString('utf8')).then((reply) => {
        if (!connection.destroyed) connection.end(`${JSON.stringify(reply)}\n`);
      });
    });
    connection.on('error', () => connection.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path: socketPath, readableAll: false, writableAll: false }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fs.chmodSync(socketPath, 0o600);
  const removeFile = () => fs.rmSync(socketPath, { force: true });
  process.once('exit', removeFile);
  let closing: Promise<void> | null = null;
  return {
    path: socketPath,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
      }).finally(() => {
        process.off('exit', removeFile);
        removeFile();
      });
      return closing;
    },
  };
}

/** Sends one command to the server holding the data folder; fails at once when nobody answers. */
export function sendToServer(dataDir: string, request: ControlRequest, holderPid: number): Promise<string> {
  const socketPath = controlSocketPath(dataDir);
  const busy = `the data folder ${dataDir} is in use by Atrium process ${holderPid}`;
  return new Promise((resolve, reject) => {
    const problem = socketPathProblem(dataDir);
    if (problem) return reject(new CommandError(`${busy}, whose control socket cannot exist (${problem})`));
    const connection = net.createConnection({ path: socketPath });
    const chunks: Buffer[] = [];
    connection.on('connect', () => connection.end(JSON.stringify(request)));
    connection.on('data', (chunk: Buffer) => chunks.push(chunk));
    connection.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        new CommandError(
          `${busy}, and its control socket ${socketPath} does not answer (${error.code ?? error.message}); if it is still starting, try again in a moment, otherwise stop it and retry`,
        ),
      );
    });
    connection.on('end', () => {
      let reply: ControlAnswer;
      try {
        reply = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ControlAnswer;
      } catch {
        return reject(new CommandError(`${busy}, and it gave no answer on its control socket; see its log`));
      }
      if (reply.ok) resolve(reply.output);
      else reject(new CommandError(reply.error));
    });
  });
}
