import type { BenchEnv } from '../scenarios/scenario.ts';
import { startChild, type Child } from './child.ts';
import type { BenchTarget } from './target.ts';

const SEED = new URL('./seed-child.ts', import.meta.url);
const SERVICE = new URL('./service-child.ts', import.meta.url);

export interface BenchService {
  service: Child<{ url: string; env: BenchEnv }>;
  /** Peak RSS of the seed process (workspace, token, every scenario's data), in bytes. */
  seedPeakRss: number | null;
}

/**
 * Seeds the target in one process, then starts the service in another on the seeded database:
 * the service's VmHWM then counts the server alone. `env` reaches both (BENCH_TICKETS, settings).
 */
export async function startBenchService(target: BenchTarget, env: Record<string, string> = {}): Promise<BenchService> {
  const seed = await startChild<{ env: BenchEnv; peakRss: number | null }>(SEED, [JSON.stringify(target.target)], env);
  await seed.stop();
  const service = await startChild<{ url: string; env: BenchEnv }>(SERVICE, [JSON.stringify(target.target), JSON.stringify(seed.ready.env)], env);
  return { service, seedPeakRss: seed.ready.peakRss };
}
