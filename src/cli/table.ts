import { toTimestamp } from '../core/time.ts';

/**
 * Rows as plain text columns under a header, each column as wide as its widest cell, for a person
 * at a terminal; `cut`/`awk` users split on two or more spaces.
 */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** A timestamp as the AI agents page shows it: `2026-04-30 09:15 UTC`. */
export function formatWhen(value: string | null, none = 'never'): string {
  return value === null ? none : `${toTimestamp(value).slice(0, 16).replace('T', ' ')} UTC`;
}
