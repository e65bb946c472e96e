import fs from 'node:fs';

/**
 * Whether Node.js `version` (as process.version gives it) is in `range`, written as package.json's
 * engines writes it: caret ranges joined by `||`. Null for any other syntax, which this does not read.
 */
export function inCaretRanges(version: string, range: string): boolean | null {
  const release = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(version.trim());
  if (!release) return null;
  const [major, minor, patch] = release.slice(1).map(Number) as [number, number, number];
  let inRange = false;
  for (const part of range.split('||')) {
    const caret = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(part.trim());
    if (!caret) return null;
    const [low, lowMinor, lowPatch] = caret.slice(1).map(Number) as [number, number, number];
    if (low === 0) return null;
    if (major === low && (minor > lowMinor || (minor === lowMinor && patch >= lowPatch))) inRange = true;
  }
  return inRange;
}

/**
 * A line for a bench's output when it runs on a Node.js release the README does not claim
 * (package.json `engines`): figures measured there are not the service's as shipped, and on this
 * machine the Node on PATH is one (Node 20 spent about 1.7 times Node 24's CPU on a board;
 * ADR 0002).
 */
export function unclaimedNodeNote(version: string = process.version): string | null {
  const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines?: { node?: string } };
  const range = pkg.engines?.node;
  if (!range || inCaretRanges(version, range) !== false) return null;
  return `Node.js ${version} is not a release the README claims (engines: ${range}), so these figures are not the service's as shipped: run the bench on a claimed release (PATH).`;
}
