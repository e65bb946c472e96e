import type { PagesRunRecord, RecordedPage } from './runs.ts';
import { CARD_MOVE_P95_BELOW_MS, PAGE_TARGET } from './targets.ts';

const ENGINE_NAME = { postgres: 'PostgreSQL', pglite: 'PGlite' } as const;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const tick = (holds: boolean) => (holds ? '✓' : '✗');

/** The page's target and verdict; the targets hold on PostgreSQL, so a PGlite row has none. */
function pageVerdict(run: PagesRunRecord, page: RecordedPage): { says: string; met: string } {
  if (run.engine !== 'postgres') return { says: '', met: '' };
  const { p95BelowMs, jsBrBelowBytes, cssBrBelowBytes } = PAGE_TARGET;
  const holds = page.p95Ms < p95BelowMs && page.js.br < jsBrBelowBytes && page.css.br < cssBrBelowBytes;
  return { says: `p95 < ${p95BelowMs} ms, JS < ${kb(jsBrBelowBytes)}, CSS < ${kb(cssBrBelowBytes)}`, met: tick(holds) };
}

function runLine(run: PagesRunRecord): string {
  const commit = `${run.commit.slice(0, 10)}${run.dirty ? ' with uncommitted changes' : ''}`;
  return (
    `- ${ENGINE_NAME[run.engine]}: run ${run.date.slice(0, 10)}, commit ${commit}, Node.js ${run.node}, ` +
    `${run.machine.cpus} CPUs (${run.machine.cpuModel}), load average ${run.loadAverage} at the start; ` +
    `${run.tickets.toLocaleString('en-US')} tickets, ${run.options.requests} requests a page one at a time after a warm-up.`
  );
}

/**
 * The "Pages" part of bench/RESULTS.md: each page's server time and the JavaScript and CSS it
 * loads (brotli), and the board's card move, from the latest full run of `bench/pages.ts` on each
 * engine. Empty when no pages run is recorded.
 */
export function pagesSection(runs: readonly PagesRunRecord[]): string[] {
  if (runs.length === 0) return [];
  const lines = [
    '## Pages',
    '',
    'From the latest full run of `bench/pages.ts` on each engine (`bench/runs.jsonl`, kind `pages`): the',
    "server time of each page's HTML and the scripts and stylesheets it loads as sent brotli-compressed, and a",
    "card moved through the board page's drag route.",
    '',
    ...runs.map(runLine),
    // a note said by both engines' runs (the Node.js release) is said once
    ...[...new Set(runs.flatMap((run) => run.notes))].map((note) => `- ${note}`),
    '',
    '| Page | Engine | Path | p50 ms | p95 ms | p99 ms | JS br | CSS br | Target | Met |',
    '|---|---|---|--:|--:|--:|--:|--:|---|:-:|',
  ];
  for (const run of runs) {
    const engine = ENGINE_NAME[run.engine];
    for (const page of run.pages) {
      const verdict = pageVerdict(run, page);
      lines.push(
        `| ${page.name} | ${engine} | \`${page.path}\` | ${page.p50Ms} | ${page.p95Ms} | ${page.p99Ms} | ${kb(page.js.br)} | ${kb(page.css.br)} | ${verdict.says} | ${verdict.met} |`,
      );
    }
    const { move } = run;
    if (move) {
      const postgres = run.engine === 'postgres';
      lines.push(
        `| ${move.name} | ${engine} | \`POST ${move.path}\` | ${move.p50Ms} | ${move.p95Ms} | ${move.p99Ms} | – | – | ` +
          `${postgres ? `p95 < ${CARD_MOVE_P95_BELOW_MS} ms` : ''} | ${postgres ? tick(move.p95Ms < CARD_MOVE_P95_BELOW_MS) : ''} |`,
      );
    }
  }
  lines.push('');
  return lines;
}
