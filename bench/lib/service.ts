import type { BenchEnv } from '../scenarios/scenario.ts';
import { startChild, type Child } from './child.ts';
import type { BenchTarget } from './target.ts';

const SEED = new URL('./seed-child.ts', import.meta.url);
const SERVICE = new URL('./service-child.js', import.meta.url);

export interface SeededTarget {
  /** What the scenarios need: the token, the member, each scenario's seed values. */
  env: BenchEnv;
  /** Peak RSS of the seed process (workspace, token, every scenario's data), in bytes. */
  seedPeakRss: number | null;
}

export interface BenchService {
  service: Child<{ url: string; env: BenchEnv }>;
  seedPeakRss: number | null;
}

/** Prepares the target in a process of its own (workspace, token, every scenario's data). */
export async function seedTarget(target: BenchTarget, env: Record<string, string> = {}): Promise<SeededTarget> {
  const seed = await startChild<{ env: BenchEnv; peakRss: number | null }>(SEED, [JSON.stringify(target.target)], env);
  await seed.stop();
  return { env: seed.ready.env, seedPeakRss: seed.ready.peakRss };
}

/** Starts the service in its own process on a seeded target: its VmHWM counts the server alone. */
export function startService(
  target: BenchTarget,
  seeded: SeededTarget,
  env: Record<string, string> = {},
): Promise<Child<{ url: string; env: BenchEnv }>> {
  return startChild<{ url: string; env: BenchEnv }>(SERVICE, [JSON.stringify(target.target), JSON.stringify(seeded.env)], env);
}

/** Seeds the target, then starts the service on it. `env` reaches both (BENCH_TICKETS, settings). */
export async function startBenchService(target: BenchTarget, env: Record<string, string> = {}): Promise<BenchService> {
  const seeded = await seedTarget(target, env);
  return { service: await startService(target, seeded, env), seedPeakRss: seeded.seedPeakRss };
}
