import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inCaretRanges, unclaimedNodeNote } from '../../bench/lib/node-release.ts';

const claimed = (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } })
  .engines.node;

describe('the bench says when it runs on a Node.js release the README does not claim', () => {
  it('reads caret ranges joined by ||, as package.json engines writes them', () => {
    const range = '^22.12.0 || ^24.0.0';
    expect(inCaretRanges('v22.12.0', range)).toBe(true);
    expect(inCaretRanges('v22.23.3', range)).toBe(true);
    expect(inCaretRanges('v24.21.0', range)).toBe(true);
    expect(inCaretRanges('v22.11.9', range)).toBe(false);
    expect(inCaretRanges('v20.20.2', range)).toBe(false);
    expect(inCaretRanges('v23.1.0', range)).toBe(false);
    expect(inCaretRanges('v25.0.0', range)).toBe(false);
  });

  it('does not guess at a range it cannot read', () => {
    expect(inCaretRanges('v22.12.0', '>=22')).toBeNull();
    expect(inCaretRanges('v0.1.0', '^0.1.0')).toBeNull();
    expect(inCaretRanges('22', '^22.12.0')).toBeNull();
  });

  it('names the release and the range for a release outside package.json engines, and says nothing inside it', () => {
    expect(unclaimedNodeNote('v20.20.2')).toBe(
      `Node.js v20.20.2 is not a release the README claims (engines: ${claimed}), so these figures are not the service's as shipped: run the bench on a claimed release (PATH).`,
    );
    expect(unclaimedNodeNote('v24.21.0')).toBeNull();
  });
});
