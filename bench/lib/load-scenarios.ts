import fs from 'node:fs';
import type { Scenario } from '../scenarios/scenario.ts';

const FOLDER = new URL('../scenarios/', import.meta.url);

/** Every scenario of bench/scenarios/*.ts (except the interface file), in file-name order. */
export async function loadScenarios(only?: string): Promise<Scenario[]> {
  const files = fs
    .readdirSync(FOLDER)
    .filter((file) => file.endsWith('.ts') && file !== 'scenario.ts')
    .sort();
  const all: Scenario[] = [];
  for (const file of files) {
    const module = (await import(new URL(file, FOLDER).href)) as { scenarios?: Scenario[] };
    all.push(...(module.scenarios ?? []));
  }
  return only ? all.filter((s) => s.name.toLowerCase().includes(only.toLowerCase())) : all;
}
