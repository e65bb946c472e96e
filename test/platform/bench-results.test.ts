import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RESULTS, RUNS, renderResults, scenarioTargets, writeResults } from '../../bench/lib/results.ts';
import {
  appendRun,
  latestFullPagesRuns,
  latestFullRun,
  readPagesRuns,
  readRuns,
  type PagesRunRecord,
  type RecordedFigures,
  type RecordedPage,
  type RunRecord,
} from '../../bench/lib/runs.ts';
import { judge } from '../../bench/lib/targets.ts';

const figures = (requestsPerSecond: number, more: Partial<RecordedFigures> = {}): RecordedFigures => ({
  requestsPerSecond,
  p50Ms: 5,
  p95Ms: 9,
  p99Ms: 12,
  requests: requestsPerSecond * 10,
  failures: 0,
  peakRssBytes: 200 * 2 ** 20,
  ...more,
});

function run(more: Partial<RunRecord> = {}): RunRecord {
  return {
    date: '2026-12-03T14:43:00.000Z',
    commit: '0123456789abcdef0123456789abcdef01234567',
    dirty: false,
    machine: { cpus: 2, cpuModel: 'Test CPU', memoryGiB: 8, platform: 'Linux 6.1' },
    node: 'v24.21.0',
    loadAverage: 0.4,
    settings: { connections: 16, duration: 10, warmup: 2 },
    options: { engines: ['pglite', 'postgres'], only: null, tickets: null, pgliteSharedBuffers: null },
    full: true,
    memory: [
      { engine: 'postgres', listeningRssBytes: 138 * 2 ** 20, seedPeakRssBytes: 165 * 2 ** 20 },
      { engine: 'pglite', listeningRssBytes: 604 * 2 ** 20, seedPeakRssBytes: 1122 * 2 ** 20 },
    ],
    rows: [
      { engine: 'pglite', scenario: 'GET /api/v1/me', atrium: figures(900), baseline: figures(1000) },
      { engine: 'postgres', scenario: 'GET /api/v1/me', atrium: figures(3000, { peakRssBytes: 250 * 2 ** 20 }), baseline: figures(4000) },
      { engine: 'postgres', scenario: 'POST /api/v1/tickets', atrium: figures(240, { peakRssBytes: 280 * 2 ** 20 }), baseline: null },
    ],
    notes: [],
    ...more,
  };
}

const page = (name: string, path: string, more: Partial<RecordedPage> = {}): RecordedPage => ({
  name,
  path,
  requests: 300,
  p50Ms: 12.5,
  p95Ms: 30.2,
  p99Ms: 41,
  files: 3,
  js: { br: 17.5 * 1024, gzip: 20_000, raw: 60_000 },
  css: { br: 3 * 1024, gzip: 3600, raw: 14_000 },
  ...more,
});

function pagesRun(more: Partial<PagesRunRecord> = {}): PagesRunRecord {
  return {
    kind: 'pages',
    date: '2026-12-05T10:00:00.000Z',
    commit: 'fedcba9876543210fedcba9876543210fedcba98',
    dirty: false,
    machine: { cpus: 2, cpuModel: 'Test CPU', memoryGiB: 8, platform: 'Linux 6.1' },
    node: 'v24.21.0',
    loadAverage: 1.5,
    engine: 'postgres',
    tickets: 100_500,
    options: { tickets: null, requests: 300 },
    full: true,
    pages: [page('home', '/'), page('board', '/boards/90', { p95Ms: 62.4, js: { br: 32.5 * 1024, gzip: 37_000, raw: 110_000 } })],
    move: { name: 'card move', path: '/boards/90/moves', requests: 300, p50Ms: 10.1, p95Ms: 18.7, p99Ms: 26 },
    notes: [],
    ...more,
  };
}

const targets = new Map([
  ['GET /api/v1/me', { ofBaseline: 0.6, pgliteWithin: 3 }],
  ['POST /api/v1/tickets', { perSecond: 250 }],
]);

describe('a scenario is judged against its target on the engine the target names', () => {
  const postgres = {
    engine: 'postgres' as const,
    requestsPerSecond: 600,
    p95Ms: 40,
    p99Ms: 25,
    baselineRequestsPerSecond: 1000,
    postgresRequestsPerSecond: null,
  };

  it('checks every part on PostgreSQL and fails when any part fails', () => {
    expect(judge({ ofBaseline: 0.5, p95BelowMs: 50 }, postgres)).toEqual({ says: '≥ 50 % of baseline, p95 < 50 ms', met: '✓' });
    expect(judge({ ofBaseline: 0.5, p99BelowMs: 20 }, postgres)).toEqual({ says: '≥ 50 % of baseline, p99 < 20 ms', met: '✗' });
    expect(judge({ perSecond: 500 }, postgres)?.met).toBe('✓');
    expect(judge({ perSecond: 700 }, postgres)?.met).toBe('✗');
  });

  it('says it cannot tell when the run lacks a figure the target needs', () => {
    expect(judge({ p95BelowMs: 50 }, { ...postgres, p95Ms: null })?.met).toBe('?');
    expect(judge({ ofBaseline: 0.5 }, { ...postgres, baselineRequestsPerSecond: null })?.met).toBe('?');
  });

  it("holds PGlite to PostgreSQL's figure of the same run, and nothing else", () => {
    const pglite = { ...postgres, engine: 'pglite' as const, requestsPerSecond: 250, postgresRequestsPerSecond: 600 };
    expect(judge({ ofBaseline: 0.9, pgliteWithin: 3 }, pglite)).toEqual({ says: 'within 3× of PostgreSQL (2.4×)', met: '✓' });
    expect(judge({ pgliteWithin: 2 }, pglite)?.met).toBe('✗');
    expect(judge({ ofBaseline: 0.9 }, pglite)).toBeNull();
    expect(judge(undefined, postgres)).toBeNull();
  });
});

describe('bench/RESULTS.md shows the latest full run: the machine, the commit, each scenario and engine beside its target', () => {
  it('renders one row per scenario and engine, PostgreSQL first, with the verdicts', () => {
    const text = renderResults(run(), targets);
    expect(text).toContain('commit 0123456789, Node.js v24.21.0');
    expect(text).toContain('2 CPUs (Test CPU), 8 GiB, Linux 6.1; load average 0.4 at the start');
    const me = text.split('\n').filter((line) => line.startsWith('| GET /api/v1/me |'));
    expect(me).toEqual([
      '| GET /api/v1/me | PostgreSQL | 3000 | 5 | 9 | 12 | 4000 | 75 % | ≥ 60 % of baseline | ✓ |',
      '| GET /api/v1/me | PGlite | 900 | 5 | 9 | 12 | 1000 | 90 % | within 3× of PostgreSQL (3.3×) | ✗ |',
    ]);
    expect(text).toContain('| POST /api/v1/tickets | PostgreSQL | 240 | 5 | 9 | 12 | – | – | ≥ 250/s | ✗ |');
  });

  it("holds the server's peak over the run on PostgreSQL to the memory target", () => {
    expect(renderResults(run(), targets)).toContain('| PostgreSQL | 138 MiB | 280 MiB | 165 MiB | < 300 MB (286 MiB) | ✓ |');
    const heavy = run();
    heavy.rows[2]!.atrium.peakRssBytes = 290 * 2 ** 20;
    expect(renderResults(heavy, targets)).toContain('| PostgreSQL | 138 MiB | 290 MiB | 165 MiB | < 300 MB (286 MiB) | ✗ |');
  });

  it('says when the service ran with uncommitted changes', () => {
    expect(renderResults(run({ dirty: true }), targets)).toContain('commit 0123456789 with uncommitted changes');
  });

  it('is made from the latest full run; a later partial run is recorded but changes nothing', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-results-'));
    try {
      const runs = pathToFileURL(path.join(folder, 'runs.jsonl'));
      const results = pathToFileURL(path.join(folder, 'RESULTS.md'));
      expect(writeResults(runs, results, targets)).toBe(false);
      appendRun(runs, run({ commit: 'a'.repeat(40) }));
      appendRun(runs, run({ commit: 'b'.repeat(40) }));
      appendRun(
        runs,
        run({
          commit: 'c'.repeat(40),
          full: false,
          options: { engines: ['postgres'], only: 'me', tickets: null, pgliteSharedBuffers: null },
        }),
      );
      expect(readRuns(runs).map((entry) => entry.commit[0])).toEqual(['a', 'b', 'c']);
      expect(latestFullRun(readRuns(runs))?.commit[0]).toBe('b');
      expect(writeResults(runs, results, targets)).toBe(true);
      expect(fs.readFileSync(results, 'utf8')).toContain('commit bbbbbbbbbb');
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it("the committed file is the one the committed runs and the scenarios' targets make", async () => {
    const current = await scenarioTargets();
    expect([...current.keys()].length).toBeGreaterThanOrEqual(10);
    const latest = latestFullRun(readRuns(RUNS));
    expect(latest).not.toBeNull();
    for (const name of current.keys()) expect(latest!.rows.map((row) => row.scenario)).toContain(name);
    const pages = latestFullPagesRuns(readPagesRuns(RUNS));
    expect(pages.map((entry) => entry.engine)).toContain('postgres');
    expect(fs.readFileSync(RESULTS, 'utf8')).toBe(renderResults(latest!, current, pages));
  });
});

describe("bench/RESULTS.md shows the pages' latest full run of each engine below the load tables, each page beside its target", () => {
  it('renders a row per page with its times, the JavaScript and CSS it loads (brotli) and the verdict, and the card move', () => {
    const text = renderResults(run(), targets, [pagesRun()]);
    const pages = text.slice(text.indexOf('## Pages'));
    expect(text.indexOf('## Pages')).toBeGreaterThan(text.indexOf('| PostgreSQL | 138 MiB'));
    expect(pages).toContain(
      '- PostgreSQL: run 2026-12-05, commit fedcba9876, Node.js v24.21.0, 2 CPUs (Test CPU), load average 1.5 at the start',
    );
    expect(pages).toContain('100,500 tickets, 300 requests a page one at a time');
    expect(pages).toContain(
      '| home | PostgreSQL | `/` | 12.5 | 30.2 | 41 | 17.5 KB | 3.0 KB | p95 < 50 ms, JS < 60.0 KB, CSS < 30.0 KB | ✓ |',
    );
    expect(pages).toContain(
      '| board | PostgreSQL | `/boards/90` | 12.5 | 62.4 | 41 | 32.5 KB | 3.0 KB | p95 < 50 ms, JS < 60.0 KB, CSS < 30.0 KB | ✗ |',
    );
    expect(pages).toContain('| card move | PostgreSQL | `POST /boards/90/moves` | 10.1 | 18.7 | 26 | – | – | p95 < 100 ms | ✓ |');
  });

  it('fails a page whose JavaScript or CSS is over its weight, whatever its time', () => {
    const heavy = pagesRun({ pages: [page('home', '/', { css: { br: 31 * 1024, gzip: 0, raw: 0 } })] });
    expect(renderResults(run(), targets, [heavy])).toContain('| 31.0 KB | p95 < 50 ms, JS < 60.0 KB, CSS < 30.0 KB | ✗ |');
  });

  it('holds PGlite to no target, and shows nothing when no pages run is recorded', () => {
    const text = renderResults(run(), targets, [pagesRun(), pagesRun({ engine: 'pglite' })]);
    expect(text).toContain('| home | PGlite | `/` | 12.5 | 30.2 | 41 | 17.5 KB | 3.0 KB |  |  |');
    expect(renderResults(run(), targets)).not.toContain('## Pages');
  });

  it("is made from each engine's latest full pages run; the load runs' readers skip the pages lines", () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-pages-'));
    try {
      const runs = pathToFileURL(path.join(folder, 'runs.jsonl'));
      const results = pathToFileURL(path.join(folder, 'RESULTS.md'));
      appendRun(runs, run({ commit: 'a'.repeat(40) }));
      appendRun(runs, pagesRun({ commit: 'b'.repeat(40) }));
      appendRun(runs, pagesRun({ commit: 'c'.repeat(40), engine: 'pglite' }));
      appendRun(runs, pagesRun({ commit: 'd'.repeat(40), full: false, options: { tickets: '20000', requests: 300 } }));
      expect(readRuns(runs).map((entry) => entry.commit[0])).toEqual(['a']);
      expect(latestFullRun(readRuns(runs))?.commit[0]).toBe('a');
      expect(latestFullPagesRuns(readPagesRuns(runs)).map((entry) => [entry.engine, entry.commit[0]])).toEqual([
        ['postgres', 'b'],
        ['pglite', 'c'],
      ]);
      expect(writeResults(runs, results, targets)).toBe(true);
      const text = fs.readFileSync(results, 'utf8');
      expect(text).toContain('commit bbbbbbbbbb');
      expect(text).not.toContain('commit dddddddddd');
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
