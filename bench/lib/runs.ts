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

/** What every line of bench/runs.jsonl says of its run: when, from which commit, on what. */
interface RunHeader {
  date: string;
  /** The commit the service ran from. */
  commit: string;
  /** Whether tracked files differed from that commit; null when unknown. */
  dirty: boolean | null;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; platform: string };
  node: string;
  /** The 1-minute load average when the run started. */
  loadAverage: number;
}

/** One line of bench/runs.jsonl: everything a later comparison needs about one `npm run bench`. */
export interface RunRecord extends RunHeader {
  /** Absent on the load runs recorded before `bench/pages.ts` recorded its own. */
  kind?: 'load';
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

/** One request's time, one at a time, over `requests` requests after a warm-up; milliseconds. */
export interface SerialFigures {
  requests: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

/** Bytes of one kind of asset a page loads, summed over its files, as sent with each encoding. */
export interface AssetBytes {
  br: number;
  gzip: number;
  raw: number;
}

export interface RecordedPage extends SerialFigures {
  name: string;
  path: string;
  /** The scripts and stylesheets the page names. */
  files: number;
  js: AssetBytes;
  css: AssetBytes;
}

/** One line of bench/runs.jsonl written by `bench/pages.ts`: the pages' server time and weight, and a card move. */
export interface PagesRunRecord extends RunHeader {
  kind: 'pages';
  engine: 'pglite' | 'postgres';
  /** Tickets in the database the pages read. */
  tickets: number;
  options: { tickets: string | null; requests: number };
  /** The full data set (no --tickets) and the default request count: the runs bench/RESULTS.md shows. */
  full: boolean;
  pages: RecordedPage[];
  /** The board page's card move (its drag's POST), one at a time. */
  move: (SerialFigures & { name: string; path: string }) | null;
  notes: string[];
}

type AnyRecord = RunRecord | PagesRunRecord;

function readRecords(file: URL): AnyRecord[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AnyRecord);
}

/** The load runs of `npm run bench` (lines of other kinds are skipped). */
export function readRuns(file: URL): RunRecord[] {
  return readRecords(file).filter((record): record is RunRecord => record.kind === undefined || record.kind === 'load');
}

/** The runs of `bench/pages.ts`. */
export function readPagesRuns(file: URL): PagesRunRecord[] {
  return readRecords(file).filter((record): record is PagesRunRecord => record.kind === 'pages');
}

export function appendRun(file: URL, run: AnyRecord): void {
  fs.appendFileSync(file, `${JSON.stringify(run)}\n`);
}

/** The latest full pages run of each engine, PostgreSQL first. */
export function latestFullPagesRuns(runs: readonly PagesRunRecord[]): PagesRunRecord[] {
  const found: PagesRunRecord[] = [];
  for (const engine of ['postgres', 'pglite'] as const) {
    const latest = runs.filter((run) => run.full && run.engine === engine).at(-1);
    if (latest) found.push(latest);
  }
  return found;
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
