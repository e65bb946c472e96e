import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { adminQuery, postgresServerUrl } from '../helpers/database.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/atrium.js');

export type Env = Record<string, string | undefined>;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment a child starts from: this process's, without any Atrium setting leaking in. */
function childEnv(env: Env): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  const settings = ['PORT', 'HOST', 'PUBLIC_URL', 'DATA_DIR', 'DATABASE_URL', 'DATABASE_POOLER', 'DATABASE_DIRECT_URL'];
  for (const name of [...settings, 'LOG_LEVEL', 'ATRIUM_DEMO']) delete base[name];
  return { ...base, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env };
}

/** Another user to run as (root's tests need one for whom a folder's permissions count). */
export interface RunAs {
  uid: number;
  gid: number;
}

/**
 * Runs `atrium …` in this process, as `src/cli.ts` would in its own: the same dispatch, the same
 * environment a child would get, stdout and stderr and the exit status as the process would have
 * them. A second of start-up saved per command; the few things only a process can show (the bin
 * script, stdin, signals, serve) use spawnCli and startServe.
 */
export async function runCli(args: string[], env: Env): Promise<CliResult> {
  const { runAtrium } = await import('../../src/cli/dispatch.ts');
  const { exitCodeFor, oneLine } = await import('../../src/cli/errors.ts');
  if (args[0] === 'serve' && !args.includes('--help')) throw new Error('serve runs until stopped: use startServe or spawnCli');
  let stderr = '';
  const io = { note: (line: string) => void (stderr += `${line}\n`) };
  try {
    const output = await runAtrium(args, childEnv(env), io);
    return { code: 0, stdout: output ? `${output}\n` : '', stderr };
  } catch (error) {
    return { code: exitCodeFor(error), stdout: '', stderr: `${stderr}atrium: ${oneLine(error)}\n` };
  }
}

/** Runs `node bin/atrium.js …` to its end, as a person at a shell would. */
export function spawnCli(args: string[], env: Env, input?: string, as?: RunAs): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: childEnv(env), stdio: ['pipe', 'pipe', 'pipe'], ...as });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const guard = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input ?? '');
  });
}

/**
 * Runs one line as a person would paste it into `sh` in the repository (a command the banner
 * printed), with no Atrium setting in the environment but those the line itself sets.
 */
export function runShell(line: string, env: Env = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', line], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const guard = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface ServeProcess {
  url: string;
  /** What serve printed on stderr up to the end of its banner. */
  banner: string;
  /** Sends SIGTERM and waits for the exit status. */
  stop(): Promise<number | null>;
}

/** Starts `atrium serve` and waits for its banner (which names the address it listens on). */
export function startServe(env: Env): Promise<ServeProcess> {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve'], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  running.add(child);
  return new Promise((resolve, reject) => {
    let stderr = '';
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve printed no banner in time: ${stderr}`));
    }, 90_000);
    child.stdout!.resume();
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      const address = /\(listening on (http:\/\/[^)]+)\)/.exec(stderr);
      if (address && stderr.includes('Stop with Ctrl+C.')) {
        clearTimeout(guard);
        resolve({
          url: address[1]!,
          banner: stderr,
          async stop() {
            child.kill('SIGTERM');
            const code = await exited;
            running.delete(child);
            return code;
          },
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(guard);
      reject(new Error(`serve exited (${code}) before its banner: ${stderr}`));
    });
  });
}

const running = new Set<ChildProcess>();

/** Kills any server a failed test left behind. */
export function killLeftovers(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

export interface Workspace {
  env: Env;
  dataDir: string;
  engine: 'pglite' | 'postgres';
  remove(): Promise<void>;
}

/**
 * A place for a new workspace: a temporary DATA_DIR, and on a PostgreSQL run a new, empty database
 * of our own on the local server (dropped by remove()).
 */
export async function newWorkspace(env: Env = {}): Promise<Workspace> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'atrium-cli-'));
  const dataDir = path.join(folder, 'data');
  const server = postgresServerUrl();
  if (!server) {
    return { env: { DATA_DIR: dataDir, ...env }, dataDir, engine: 'pglite', remove: () => fs.rm(folder, { recursive: true, force: true }) };
  }
  const name = `atrium_cli_${randomBytes(4).toString('hex')}`;
  await adminQuery(server, `create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.href, ...env },
    dataDir,
    engine: 'postgres',
    async remove() {
      await adminQuery(server, `drop database if exists ${name} with (force)`);
      await fs.rm(folder, { recursive: true, force: true });
    },
  };
}

/** The demo workspace file's administrator, as serve is to announce them. */
export async function demoAdministrator(): Promise<{ name: string; email: string; password: string }> {
  const file = parse(await fs.readFile(path.join(ROOT, 'examples/demo-workspace.yaml'), 'utf8')) as {
    members: { name: string; email?: string; password?: string; admin?: boolean }[];
  };
  const admin = file.members.find((m) => m.admin && m.email && m.password);
  if (!admin) throw new Error('the demo workspace has no administrator with a password');
  return { name: admin.name, email: admin.email!, password: admin.password! };
}

export interface MeAnswer {
  user?: { id: string; name: string };
  agent?: { name: string; access: string };
  error?: { code: string; message: string };
}

export async function getMe(url: string, token: string): Promise<{ status: number; body: MeAnswer }> {
  const response = await fetch(`${url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as MeAnswer };
}

export const TOKEN = /^svc_pat_[A-Za-z0-9_-]{43}\n$/;

/** Logs in on the login page as a browser would: the answer's status and the session cookie it set. */
async function logInSession(url: string, email: string, password: string): Promise<{ status: number; cookie: string }> {
  const page = await fetch(`${url}/login`);
  const cookies = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const answer = await fetch(`${url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookies, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf, email, password, return_to: '/agents' }),
  });
  return {
    status: answer.status,
    cookie: answer.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; '),
  };
}

/** 303 on success, 401 for a wrong password. */
export async function logIn(url: string, email: string, password: string): Promise<number> {
  return (await logInSession(url, email, password)).status;
}

/** A page's HTML as the member sees it once logged in. */
export async function pageAs(url: string, email: string, password: string, path: string): Promise<string> {
  const { cookie } = await logInSession(url, email, password);
  return (await fetch(`${url}${path}`, { headers: { cookie } })).text();
}
