import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { LoadSettings } from './load.ts';

/** One side's figures of one scenario. Null where a run did not record the figure. */
export interface RecordedFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p95Ms: number | null;
  p99Ms: number;
  requests: number | null;
  failures: number | null;
  /** The server's high-water mark so far: Atrium's grows across the scenarios one process serves. */
  peakRssBytes: number | null;
}

export interface RecordedRow {
  engine: 'pglite' | 'postgres';
  scenario: string;
  atrium: RecordedFigures;
  baseline: RecordedFigures | null;
}

export interface EngineMemory {
  engine: 'pglite' | 'postgres';
  /** The server once listening, before any load. */
  listeningRssBytes: number | null;
  /** The process that seeded the data, before the server started. */
  seedPeakRssBytes: number | null;
}

/** One line of bench/runs.jsonl: everything a later comparison needs about one `npm run bench`. */
export interface RunRecord {
  date: string;
  /** The commit the service ran from. */
  commit: string;
  /** Whether tracked files differed from that commit; null when unknown. */
  dirty: boolean | null;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; platform: string };
  node: string;
  /** The 1-minute load average when the run started. */
  loadAverage: number;
  settings: LoadSettings;
  options: { engines: Array<'pglite' | 'postgres'>; only: string | null; tickets: string | null; pgliteSharedBuffers: string | null };
  /** Every scenario, both engines, the full data set: the runs bench/RESULTS.md is made from. */
  full: boolean;
  memory: EngineMemory[];
  rows: RecordedRow[];
  /** What a reader of the figures must know about this run (failed requests, a release not claimed, …). */
  notes: string[];
  /** Where a record came from when the bench did not write it itself. */
  provenance?: string;
}

export function readRuns(file: URL): RunRecord[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RunRecord);
}

export function appendRun(file: URL, run: RunRecord): void {
  fs.appendFileSync(file, `${JSON.stringify(run)}\n`);
}

export function latestFullRun(runs: readonly RunRecord[]): RunRecord | null {
  for (let i = runs.length - 1; i >= 0; i -= 1) if (runs[i]!.full) return runs[i]!;
  return null;
}

/** The checkout's commit and whether tracked files differ from it; unknown outside a git checkout. */
export function currentCommit(): { commit: string; dirty: boolean | null } {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    return { commit: git('rev-parse', 'HEAD'), dirty: git('status', '--porcelain', '--untracked-files=no') !== '' };
  } catch {
    return { commit: 'unknown', dirty: null };
  }
}
