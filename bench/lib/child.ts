import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';

export interface Child<T> {
  pid: number;
  /** What the child printed as its first stdout line (JSON): its address and anything else. */
  ready: T;
  /** Peak resident set size of the child so far, in bytes (Linux VmHWM), or null elsewhere. */
  peakRss(): number | null;
  stop(): Promise<void>;
}

/** A size line of /proc/<pid>/status in bytes, or null off Linux or once the process is gone. */
function statusBytes(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Peak RSS ("high water mark") of a process from /proc; the kernel keeps it, so no sampling is missed. */
export function peakRssOf(pid: number): number | null {
  return statusBytes(pid, 'VmHWM');
}

/** RSS of a process now, for a trend over time. */
export function rssOf(pid: number): number | null {
  return statusBytes(pid, 'VmRSS');
}

/** USER_HZ: 100 on every Linux that Node.js runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU time the process has used so far (user + system), in milliseconds, or null off Linux. The
 * CPU a server spends per request hardly moves with the machine's load, unlike requests/s.
 */
export function cpuMsOf(pid: number): number | null {
  // fields 14 and 15 of /proc/<pid>/stat: utime and stime
  const fields = statFields(pid);
  return fields ? ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND : null;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces), or null once the process is gone. */
function statFields(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * CPU time PostgreSQL has used so far on this machine, in milliseconds, or null off Linux: every
 * `postgres` process's own (its backends, and the writers and checkpointer that do a write's work
 * after it is answered), plus what its ended processes used, which the kernel adds to the
 * postmaster's children's time when it reaps them. So a backend or an autovacuum worker that ends
 * between two readings is neither lost nor counted twice. Another database's work on the same
 * server counts too.
 */
export function postgresCpuMs(): number | null {
  let pids: number[];
  try {
    pids = fs
      .readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return null;
  }
  let ticks = 0;
  for (const pid of pids) {
    let command: string;
    try {
      command = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (command !== 'postgres') continue;
    // utime, stime, cutime, cstime
    const fields = statFields(pid);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The Node options `npm start` gives the service (package.json), so the bench measures what it runs. */
function startOptions(): string[] {
  const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));
}

/**
 * Runs a file in its own Node process (no wrapper process in between, so the pid measured is the
 * server's own) with the options `npm start` uses, and waits for the JSON line it prints when it
 * listens. The service child is JavaScript that loads `dist/` as bin/atrium.js does; the
 * TypeScript ones (seed, baseline) have Node strip their types, or tsx where it cannot.
 */
export async function startChild<T>(file: URL, args: string[], env: Record<string, string> = {}): Promise<Child<T>> {
  const child: ChildProcess = spawn(
    process.execPath,
    [...startOptions(), ...(process.features.typescript ? [] : ['--import', 'tsx']), file.pathname, ...args],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<T>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      try {
        resolve(JSON.parse(line) as T);
      } catch {
        reject(new Error(`${file.pathname} printed ${line}`));
      }
    });
    child.once('exit', (code) => reject(new Error(`${file.pathname} exited with ${code}: ${stderr.trim()}`)));
  });
  child.stdout!.resume();
  return {
    pid: child.pid!,
    ready,
    peakRss: () => peakRssOf(child.pid!),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
