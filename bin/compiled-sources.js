// Where the service runs from: `dist/`, the sources with their types stripped, when Node can strip
// them (module.stripTypeScriptTypes, 22.13 and later). Node would strip each file as it loads it,
// but the stripper (WebAssembly) then stays in the process: about 20 MiB of a server's memory for
// good. The copy is made again, in a process of its own, whenever a source's content changes; if
// it cannot be written, the sources run as they are.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
export const SOURCES = path.join(ROOT, 'src');
export const COMPILED = path.join(ROOT, 'dist');
/** The fingerprint of the sources `dist/` was made from. */
export const FINGERPRINT_FILE = '.sources-fingerprint';

/** The TypeScript files under a folder, relative to it, in a stable order. */
export function typeScriptFiles(folder) {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * A hash of every source's path and content (2 MB, tens of milliseconds), and of the code that
 * makes `dist/` from them: edits, checkouts, copies and a changed compiler alike.
 */
export function sourcesFingerprint() {
  const hash = createHash('sha256');
  for (const compiler of ['compiled-sources.js', 'compile-sources.js'])
    hash.update(fs.readFileSync(path.join(import.meta.dirname, compiler))).update('\0');
  for (const file of typeScriptFiles(SOURCES))
    hash
      .update(file)
      .update('\0')
      .update(fs.readFileSync(path.join(SOURCES, file)))
      .update('\0');
  return hash.digest('hex');
}

const RELATIVE_TS_IMPORT = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"\n]*)\.ts\2/g;

/** One source as Node runs it: types stripped (tsconfig allows only erasable syntax), relative imports to `.js`. */
export function compileSource(text) {
  return module.stripTypeScriptTypes(text, { mode: 'strip' }).replace(RELATIVE_TS_IMPORT, '$1$2$3.js$2');
}

function readFingerprint() {
  try {
    return fs.readFileSync(path.join(COMPILED, FINGERPRINT_FILE), 'utf8');
  } catch {
    return null;
  }
}

/**
 * The folder to import the CLI from: `dist/` (made again first if the sources changed), or null
 * to run the TypeScript sources (Node cannot strip types here, or `dist/` could not be written).
 */
export function compiledSources() {
  if (typeof module.stripTypeScriptTypes !== 'function' || process.env.ATRIUM_RUN_SOURCES === '1') return null;
  const fingerprint = sourcesFingerprint();
  if (readFingerprint() === fingerprint) return COMPILED;
  const made = spawnSync(process.execPath, ['--no-warnings', path.join(import.meta.dirname, 'compile-sources.js'), fingerprint], {
    encoding: 'utf8',
  });
  if (made.status === 0 && readFingerprint() === fingerprint) return COMPILED;
  const reason = (made.stderr || made.error?.message || '').trim().split('\n')[0];
  process.stderr.write(`atrium: running the TypeScript sources as they are (could not write ${COMPILED}: ${reason})\n`);
  return null;
}
