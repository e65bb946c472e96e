import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCatalogue } from '../../src/core/errors.ts';

const page = fs.readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

/** The rows of the "API error codes" table: `code` → status. */
function documentedCodes(): Map<string, number> {
  const section = page.split(/^## /m).find((part) => part.startsWith('API error codes'));
  expect(section, 'docs/errors.md has an "API error codes" section').toBeDefined();
  const rows = new Map<string, number>();
  for (const match of section!.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|(.+)\|\s*$/gm)) {
    expect(rows.has(match[1]!), `${match[1]} is listed twice`).toBe(false);
    const cells = match[3]!.split(' | ');
    expect(
      cells.every((cell) => cell.trim().length > 0),
      `${match[1]} says when and what to do`,
    ).toBe(true);
    rows.set(match[1]!, Number(match[2]));
  }
  return rows;
}

describe('errors: docs/errors.md lists the same codes with the same statuses as the catalogue', () => {
  it('documents every code of src/core/errors.ts, and no other', () => {
    const documented = documentedCodes();
    const catalogue = new Map(Object.entries(errorCatalogue).map(([code, { status }]) => [code, status as number]));
    expect([...documented.keys()].sort()).toEqual([...catalogue.keys()].sort());
    for (const [code, status] of catalogue) expect(documented.get(code), code).toBe(status);
  });

  it('describes the OAuth error shape and the MCP errors', () => {
    expect(page).toMatch(/^## OAuth errors/m);
    expect(page).toContain('"error_description"');
    expect(page).toMatch(/^## MCP errors/m);
    expect(page).toContain('isError: true');
  });
});
