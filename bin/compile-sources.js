// Makes `dist/` from `src/` (bin/compiled-sources.js starts it, in a process of its own so that the
// stripper's memory goes when it ends): each file with its types replaced by spaces, so lines and
// columns in a stack trace are the source's, and relative `.ts` imports pointing at `.js`. Written
// beside `dist/` and swapped in whole, so that a process never imports half a copy.
import fs from 'node:fs';
import path from 'node:path';
import { COMPILED, FINGERPRINT_FILE, SOURCES, compileSource, typeScriptFiles } from './compiled-sources.js';

const fingerprint = process.argv[2];

const staging = `${COMPILED}.${process.pid}.tmp`;
fs.rmSync(staging, { recursive: true, force: true });
try {
  for (const file of typeScriptFiles(SOURCES)) {
    const target = path.join(staging, file.replace(/\.ts$/, '.js'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, compileSource(fs.readFileSync(path.join(SOURCES, file), 'utf8')));
  }
  fs.writeFileSync(path.join(staging, FINGERPRINT_FILE), fingerprint);
  const previous = `${COMPILED}.${process.pid}.old`;
  if (fs.existsSync(COMPILED)) fs.renameSync(COMPILED, previous);
  fs.renameSync(staging, COMPILED);
  fs.rmSync(previous, { recursive: true, force: true });
} catch (error) {
  fs.rmSync(staging, { recursive: true, force: true });
  // one line for the CLI to pass on: what could not be done, not a stack
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
