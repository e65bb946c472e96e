import os from 'node:os';
import type { LoadFigures } from './load.ts';

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

const mib = (bytes: number | null) => (bytes === null ? 'n/a' : `${Math.round(bytes / 2 ** 20)} MiB`);
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
