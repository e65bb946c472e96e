import fs from 'node:fs';
import type { Scenario } from '../scenarios/scenario.ts';

const FOLDER = new URL('../scenarios/', import.meta.url);

/** Every scenario of bench/scenarios/*.ts (except the interface file), in file-name order. */
export async function loadScenarios(): Promise<Scenario[]> {
  const files = fs
    .readdirSync(FOLDER)
    .filter((file) => file.endsWith('.ts') && file !== 'scenario.ts')
    .sort();
  const all: Scenario[] = [];
  for (const file of files) {
    const module = (await import(new URL(file, FOLDER).href)) as { scenarios?: Scenario[] };
    all.push(...(module.scenarios ?? []));
  }
  return all;
}

/** The scenarios whose name contains any of the comma-separated words of `only`, in any case; all of them when it names none. */
export function scenariosNamed(all: readonly Scenario[], only: string | undefined): Scenario[] {
  const words = (only ?? '')
    .toLowerCase()
    .split(',')
    .map((word) => word.trim())
    .filter(Boolean);
  return all.filter((scenario) => words.length === 0 || words.some((word) => scenario.name.toLowerCase().includes(word)));
}

/**
 * The reads (names starting `GET `) before the writes, each kept in its order. A write leaves
 * what later reads walk past until a vacuum passes: dead row versions and index entries (a card
 * move rewrites its ticket in every index, the search's too), and this machine's PostgreSQL runs
 * no autovacuum. Measured: ten seconds of card moves before the searches took PGlite's one-word
 * search from 610 to 454 a second and its baseline from 2,087 to 1,246.
 */
export function readsFirst(scenarios: readonly Scenario[]): Scenario[] {
  const isRead = (scenario: Scenario) => scenario.name.startsWith('GET ');
  return [...scenarios.filter(isRead), ...scenarios.filter((scenario) => !isRead(scenario))];
}
