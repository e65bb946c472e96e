// node --import tsx bench/results.ts
// Makes bench/RESULTS.md again from the latest full run in bench/runs.jsonl, with each scenario's
// current target; `npm run bench` does the same after a full run.
import { RESULTS, RUNS, scenarioTargets, writeResults } from './lib/results.ts';

if (writeResults(RUNS, RESULTS, await scenarioTargets()))
  console.error('bench/RESULTS.md made from the latest full run in bench/runs.jsonl');
else {
  console.error('bench/runs.jsonl holds no full run yet: run `npm run bench` without --only, --tickets or --engine');
  process.exitCode = 1;
}
