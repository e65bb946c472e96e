/**
 * What a scenario is held to (ADR 0046). The ratio, latency and throughput parts hold on
 * PostgreSQL; `pgliteWithin` holds on PGlite, against PostgreSQL's figure of the same run.
 */
export interface Target {
  /** Atrium's requests a second over its bare baseline's, at least (0.5 is 50 %). */
  ofBaseline?: number;
  p95BelowMs?: number;
  p99BelowMs?: number;
  /** Requests answered a second, at least. */
  perSecond?: number;
  /** PostgreSQL's requests a second over PGlite's, at most. */
  pgliteWithin?: number;
}

/** The server's peak RSS over a whole run on PostgreSQL stays below 300 MB. */
export const PEAK_RSS_BELOW_BYTES = 300_000_000;

/** What the figures of one row are checked against: its own, its baseline's, and PostgreSQL's for a PGlite row. */
export interface Measured {
  engine: 'pglite' | 'postgres';
  requestsPerSecond: number;
  p95Ms: number | null;
  p99Ms: number;
  baselineRequestsPerSecond: number | null;
  postgresRequestsPerSecond: number | null;
}

interface Part {
  says: string;
  /** Null when the run lacks the figure the part needs. */
  holds: boolean | null;
}

const percent = (ratio: number) => `${Math.round(ratio * 100)} %`;

function parts(target: Target, row: Measured): Part[] {
  if (row.engine === 'pglite') {
    if (target.pgliteWithin === undefined) return [];
    const times = row.postgresRequestsPerSecond === null ? null : row.postgresRequestsPerSecond / row.requestsPerSecond;
    return [
      {
        says: `within ${target.pgliteWithin}× of PostgreSQL${times === null ? '' : ` (${times.toFixed(1)}×)`}`,
        holds: times === null ? null : times <= target.pgliteWithin,
      },
    ];
  }
  const found: Part[] = [];
  if (target.ofBaseline !== undefined) {
    const ratio = row.baselineRequestsPerSecond ? row.requestsPerSecond / row.baselineRequestsPerSecond : null;
    found.push({ says: `≥ ${percent(target.ofBaseline)} of baseline`, holds: ratio === null ? null : ratio >= target.ofBaseline });
  }
  if (target.p95BelowMs !== undefined)
    found.push({ says: `p95 < ${target.p95BelowMs} ms`, holds: row.p95Ms === null ? null : row.p95Ms < target.p95BelowMs });
  if (target.p99BelowMs !== undefined) found.push({ says: `p99 < ${target.p99BelowMs} ms`, holds: row.p99Ms < target.p99BelowMs });
  if (target.perSecond !== undefined) found.push({ says: `≥ ${target.perSecond}/s`, holds: row.requestsPerSecond >= target.perSecond });
  return found;
}

/** The target in words and whether the row meets it ('✓', '✗', '?' when a figure is missing); null when nothing applies to the row's engine. */
export function judge(target: Target | undefined, row: Measured): { says: string; met: '✓' | '✗' | '?' } | null {
  const found = target ? parts(target, row) : [];
  if (found.length === 0) return null;
  const met = found.some((part) => part.holds === false) ? '✗' : found.some((part) => part.holds === null) ? '?' : '✓';
  return { says: found.map((part) => part.says).join(', '), met };
}

/**
 * What each page is held to on PostgreSQL with the 100,000-ticket set (WEB.md §3): its HTML in
 * under 50 ms p95, one request at a time, warm; the JavaScript and the CSS it loads under 60 KB
 * and 30 KB brotli-compressed, all files together.
 */
export const PAGE_TARGET = { p95BelowMs: 50, jsBrBelowBytes: 60 * 1024, cssBrBelowBytes: 30 * 1024 } as const;

/** A card moved on the board page (its drag's POST) is answered in under 100 ms p95, one at a time. */
export const CARD_MOVE_P95_BELOW_MS = 100;
