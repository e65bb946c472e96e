import autocannon, { type Options, type Result } from 'autocannon';
import type { BenchRequest } from '../scenarios/scenario.ts';

export interface LoadSettings {
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of load before measuring, thrown away (JIT, caches, pool). */
  warmup: number;
}

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  /**
   * The latency targets are 95th percentiles (ADR 0046), which autocannon does not report: taken
   * from every answer's time.
   */
  p95Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers that were not 2xx, plus connection errors and timeouts: must be 0 for figures to count. */
  failures: number;
}

/**
 * How long a request may wait for its answer before autocannon counts it a failure (its default is
 * 10 s). Long enough for the heaviest scenario on PGlite, where 16 hours reports of 100,000
 * activities queue on its one connection and the last waits 16 reports' time: the figures then say
 * how slow that is instead of being thrown away as failed.
 */
const ANSWER_TIMEOUT_S = 60;

function authorized(request: BenchRequest, token: string | null): Record<string, string> {
  const headers: Record<string, string> = { ...request.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  if (request.body !== undefined || request.bodies) headers['content-type'] = 'application/json';
  return headers;
}

/** The nearest-rank percentile `p` of `times`, in whole milliseconds as autocannon gives its own. */
export function percentileMs(times: number[], p: number): number {
  if (times.length === 0) return 0;
  const sorted = Float64Array.from(times).sort();
  return Math.round(sorted[Math.ceil((p / 100) * sorted.length) - 1]!);
}

function figuresOf(result: Result, times: number[]): LoadFigures {
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p95Ms: percentileMs(times, 95),
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** One measured autocannon run, with the time of every answer it got. */
async function measured(options: Options): Promise<LoadFigures> {
  const times: number[] = [];
  const run = autocannon(options);
  run.on('response', (_client: unknown, _status: number, _bytes: number, time: number) => times.push(time));
  return figuresOf(await run, times);
}

/** Loads one address with autocannon and keeps the figures the report shows. */
export async function load(baseUrl: string, request: BenchRequest, token: string | null, settings: LoadSettings): Promise<LoadFigures> {
  const bodies = (request.bodies ?? []).map((body) => JSON.stringify(body));
  const paths = request.paths ?? [];
  let sent = 0;
  // each request takes the next body and the next path of those given, in turn
  const rotate = (req: { body?: string; path?: string }) => {
    sent += 1;
    return {
      ...req,
      ...(bodies.length ? { body: bodies[sent % bodies.length] } : {}),
      ...(paths.length ? { path: paths[sent % paths.length] } : {}),
    };
  };
  const options = {
    url: `${baseUrl}${request.path}`,
    method: request.method,
    headers: authorized(request, token),
    connections: settings.connections,
    timeout: ANSWER_TIMEOUT_S,
    ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    ...(bodies.length || paths.length ? { requests: [{ setupRequest: rotate }] } : {}),
  };
  if (settings.warmup > 0) await autocannon({ ...options, duration: settings.warmup });
  return measured({ ...options, duration: settings.duration });
}

/** Loads a mix: every connection sends the requests in turn, over and over (autocannon's `requests`). */
export async function loadMix(
  baseUrl: string,
  requests: readonly BenchRequest[],
  token: string | null,
  settings: LoadSettings,
): Promise<LoadFigures> {
  const options = {
    url: baseUrl,
    connections: settings.connections,
    timeout: ANSWER_TIMEOUT_S,
    requests: requests.map((request) => ({
      method: request.method,
      path: request.path,
      headers: authorized(request, token),
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    })),
  };
  if (settings.warmup > 0) await autocannon({ ...options, duration: settings.warmup });
  return measured({ ...options, duration: settings.duration });
}
