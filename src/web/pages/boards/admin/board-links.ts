import type { Context } from '../../../../core/context.ts';
import { listSprints, mayAdministerBoard, type BoardDetail } from '../../../../modules/boards/index.ts';
import { html, type Html } from '../../../html.ts';

/** The board page's ways to its settings (for those who may administer it) and to its sprints' reports. */
export async function boardAdminLinks(ctx: Context, board: BoardDetail): Promise<Html> {
  const links: Html[] = [];
  if (await mayAdministerBoard(ctx, board.number)) links.push(html`<a href="/boards/${String(board.number)}/settings">Board settings</a>`);
  if (board.kind === 'scrum' && ctx.settings.modules.sprints) {
    const started = (await listSprints(ctx, board.number)).sprints.filter((s) => s.state !== 'future');
    for (const sprint of started)
      links.push(
        html`<a href="/boards/${String(board.number)}/sprints/${encodeURIComponent(sprint.id)}/report">Report of ${sprint.name}</a>`,
      );
  }
  return links.length ? html`<p class="board-admin-links">${links.map((link, i) => html`${i ? ' · ' : ''}${link}`)}</p>` : html``;
}
