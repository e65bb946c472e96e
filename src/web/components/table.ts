import { html, type Html } from '../html.ts';

export type Cell = Html | string | number | null | undefined;

export interface Column<T> {
  /** The header; on a phone each cell is labelled with it. An empty header is a column of actions. */
  header: string;
  cell: (row: T) => Cell;
  className?: string;
}

export interface TableOptions<T> {
  id?: string;
  caption?: string;
  /** Attributes of a row (a data-* the tests and scripts find it by, a class). */
  rowAttributes?: (row: T) => Html;
  /** Attributes of the body (a list drag.js reorders: `data-drop` …). */
  bodyAttributes?: Html;
}

/** A table whose rows stack into labelled blocks on a phone (375 px). */
export function table<T>(columns: readonly Column<T>[], rows: readonly T[], options: TableOptions<T> = {}): Html {
  return html`<table class="stack"${options.id ? html` id="${options.id}"` : ''}>${options.caption ? html`<caption class="visually-hidden">${options.caption}</caption>` : ''}<thead><tr>${columns.map(
    (c) => (c.header ? html`<th scope="col">${c.header}</th>` : html`<th scope="col"><span class="visually-hidden">Actions</span></th>`),
  )}</tr></thead><tbody${options.bodyAttributes ? html` ${options.bodyAttributes}` : ''}>${rows.map(
    (row) =>
      html`<tr${options.rowAttributes ? html` ${options.rowAttributes(row)}` : ''}>${columns.map(
        (c) =>
          html`<td${c.className ? html` class="${c.className}"` : ''}${c.header ? html` data-label="${c.header}"` : ''}>${c.cell(row) ?? ''}</td>`,
      )}</tr>`,
  )}</tbody></table>`;
}
