// node --import tsx bench/live-events.ts [-- --listeners 0,25,100,1000 --watchers 0 --comments 200 --engine pglite|postgres]
// Fan-out of a change (ADR 0022): N open ticket pages (event streams on one ticket, spread over
// the members' sessions, at most 20 each) and W members watching the ticket, while an agent
// comments on it one comment after another. Prints, per engine and N: the time to open the
// streams and the memory each holds on the server (JS heap after a full collection, and RSS), comments/s and the comment's own latency (it
// writes one notification per watcher), the delay from sending a comment to its `change` event
// reaching each page (p50, p99, max), events missed, and the server's peak RSS.
import http from 'node:http';
import { parseArgs } from 'node:util';
import { startChild } from './lib/child.ts';
import { machine } from './lib/report.ts';
import { pgliteTarget, postgresAnswers, postgresTarget, type BenchTarget } from './lib/target.ts';

const SERVICE = new URL('./lib/live-service-child.ts', import.meta.url);

const { values: args } = parseArgs({
  options: {
    listeners: { type: 'string', default: '0,25,100' },
    comments: { type: 'string', default: '200' },
    watchers: { type: 'string', default: '0' },
    engine: { type: 'string' },
  },
});
const listenerCounts = args.listeners.split(',').map(Number);
const commentCount = Number(args.comments);
const watcherCount = Number(args.watchers);
/** The server's limit of open pages per member (src/web/pages/live/events.ts). */
const STREAMS_PER_MEMBER = 20;

interface Ready {
  url: string;
  token: string;
  key: string;
  cookies: string[];
}

/** One open page's stream: resolves `ready` once the server says it hears changes; records each change's arrival. */
function openStream(base: string, key: string, cookie: string, arrivals: number[][]) {
  const mine: number[] = [];
  arrivals.push(mine);
  let request!: http.ClientRequest;
  const ready = new Promise<void>((resolve, reject) => {
    request = http.get(
      new URL(`/events?topic=${encodeURIComponent(`ticket:${key}`)}`, base),
      { headers: { cookie }, agent: false },
      (response) => {
        if (response.statusCode !== 200) reject(new Error(`stream answered ${response.statusCode}`));
        response.setEncoding('utf8');
        let buffer = '';
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const message = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            if (message.startsWith('event: ready')) resolve();
            if (message.startsWith('event: change')) mine.push(performance.now());
          }
        });
      },
    );
    request.on('error', reject);
  });
  return { ready, close: () => request.destroy() };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function run(target: BenchTarget, listeners: number) {
  const members = Math.max(watcherCount, Math.ceil(listeners / STREAMS_PER_MEMBER));
  const child = await startChild<Ready>(SERVICE, [JSON.stringify(target.target), JSON.stringify({ members, watchers: watcherCount })]);
  const { url, token, key, cookies } = child.ready;
  try {
    const arrivals: number[][] = [];
    const memory = async () => (await (await fetch(`${url}/bench/memory`)).json()) as { rss: number; heapUsed: number };
    const before = await memory();
    const opening = performance.now();
    const streams = Array.from({ length: listeners }, (_, i) => openStream(url, key, cookies[i % cookies.length]!, arrivals));
    await Promise.all(streams.map((s) => s.ready));
    const openMs = performance.now() - opening;
    const after = await memory();
    const perStream = (field: keyof typeof before) => (listeners ? (after[field] - before[field]) / listeners / 1024 : NaN);
    const sent: number[] = [];
    const latencies: number[] = [];
    const started = performance.now();
    for (let i = 0; i < commentCount; i += 1) {
      sent.push(performance.now());
      const response = await fetch(`${url}/api/v1/tickets/${key}/comments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ body: `Comment ${i}` }),
      });
      if (response.status !== 201) throw new Error(`comment answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
      latencies.push(performance.now() - sent[i]!);
    }
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    // what is still on its way
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const delays: number[] = [];
    let missed = 0;
    for (const mine of arrivals) {
      missed += Math.max(0, commentCount - mine.length);
      mine.slice(0, commentCount).forEach((at, i) => delays.push(at - sent[i]!));
    }
    delays.sort((a, b) => a - b);
    for (const s of streams) s.close();
    return {
      engine: target.engine,
      listeners,
      openMs,
      heapPerStreamKiB: perStream('heapUsed'),
      rssPerStreamKiB: perStream('rss'),
      commentsPerSecond: commentCount / elapsed,
      commentP50: percentile(latencies, 50),
      commentP99: percentile(latencies, 99),
      p50: percentile(delays, 50),
      p99: percentile(delays, 99),
      max: delays.at(-1) ?? NaN,
      missed,
      peakRssMiB: (child.peakRss() ?? NaN) / 1048576,
    };
  } finally {
    await child.stop();
    await target.dispose();
  }
}

const engines = args.engine ? [args.engine] : ['pglite', ...((await postgresAnswers()) ? ['postgres'] : [])];
const host = machine();
console.log(
  `live events fan-out · ${new Date().toISOString().slice(0, 10)} · ${host.cpus} × ${host.cpuModel} · Node ${host.node} · load ${host.loadAverage} · ${commentCount} comments per row · ${watcherCount} watchers`,
);
console.log(
  '| engine | open pages | open all ms | heap KiB per page | RSS KiB per page | comments/s | comment p50 ms | comment p99 ms | delay p50 ms | delay p99 ms | max ms | missed | peak RSS MiB |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const engine of engines) {
  for (const listeners of listenerCounts) {
    const r = await run(engine === 'postgres' ? await postgresTarget() : pgliteTarget(), listeners);
    const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '—');
    console.log(
      `| ${r.engine} | ${r.listeners} | ${f(r.openMs, 0)} | ${f(r.heapPerStreamKiB)} | ${f(r.rssPerStreamKiB)} | ${f(r.commentsPerSecond)} | ${f(r.commentP50)} | ${f(r.commentP99)} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.max)} | ${r.missed} | ${f(r.peakRssMiB, 0)} |`,
    );
  }
}
