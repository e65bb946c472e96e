import type { Context } from '../../../../core/context.ts';
import { mayAdministerBoard, type BoardDetail } from '../../../../modules/boards/index.ts';
import { html, type Html } from '../../../html.ts';

/** The board page's way to its settings, for those who may administer the board. */
export async function boardAdminLinks(ctx: Context, board: BoardDetail): Promise<Html> {
  const links: Html[] = [];
  if (await mayAdministerBoard(ctx, board.number)) links.push(html`<a href="/boards/${String(board.number)}/settings">Board settings</a>`);
  return links.length ? html`<p class="board-admin-links">${links.map((link, i) => html`${i ? ' · ' : ''}${link}`)}</p>` : html``;
}
