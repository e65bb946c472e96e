import fs from 'node:fs';
import os from 'node:os';
import type { LoadFigures, LoadSettings } from './load.ts';

export interface Row {
  engine: 'pglite' | 'postgres';
  scenario: string;
  atrium: LoadFigures & { peakRssBytes: number | null };
  baseline: (LoadFigures & { peakRssBytes: number | null }) | null;
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run started: other work on the machine skews absolute figures. */
  loadAverage: number;
}

export function machine(): Machine {
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    loadAverage: Math.round(os.loadavg()[0]! * 10) / 10,
  };
}

export const mib = (bytes: number | null) => (bytes === null ? 'n/a' : `${Math.round(bytes / 2 ** 20)} MiB`);
const ratio = (row: Row) => (row.baseline ? `${Math.round((row.atrium.requestsPerSecond / row.baseline.requestsPerSecond) * 100)} %` : '–');

export function markdownTable(rows: Row[]): string {
  const lines = [
    '| Engine | Scenario | Atrium req/s | p50 ms | p95 ms | p99 ms | peak RSS | Baseline req/s | p50 ms | p99 ms | peak RSS | Atrium/baseline |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const row of rows) {
    const b = row.baseline;
    lines.push(
      `| ${row.engine} | ${row.scenario} | ${row.atrium.requestsPerSecond} | ${row.atrium.p50Ms} | ${row.atrium.p95Ms} | ${row.atrium.p99Ms} | ${mib(row.atrium.peakRssBytes)} | ` +
        `${b ? b.requestsPerSecond : '–'} | ${b ? b.p50Ms : '–'} | ${b ? b.p99Ms : '–'} | ${b ? mib(b.peakRssBytes) : '–'} | ${ratio(row)} |`,
    );
  }
  return lines.join('\n');
}

export function markdownSection(date: Date, host: Machine, settings: LoadSettings, rows: Row[], notes: string[]): string {
  return [
    `## ${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `Machine: ${host.cpus} CPUs (${host.cpuModel}), ${host.memoryGiB} GiB memory, Node.js ${host.node}, ${host.platform}; ` +
      `load average ${host.loadAverage} at the start. ` +
      `Load: autocannon, ${settings.connections} connections, ${settings.duration} s measured after ${settings.warmup} s of warm-up, one scenario at a time.`,
    '',
    markdownTable(rows),
    '',
    ...notes.map((note) => `- ${note}`),
    '',
  ].join('\n');
}

export function appendResults(file: URL, section: string): void {
  const header =
    '# Benchmark results\n\nAppended by `npm run bench` (bench/run.ts); newest last. Figures are from a shared, noisy machine: compare ratios within one run, not absolute numbers across runs.\n\n';
  if (!fs.existsSync(file)) fs.writeFileSync(file, header);
  // a section written by hand may end the file without the blank line a heading needs before it
  const text = fs.readFileSync(file, 'utf8');
  const gap = text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  fs.appendFileSync(file, `${gap}${section}\n`);
}
