import { isUuid } from '../../core/schema-kit.ts';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import { toTimestamp } from '../../core/time.ts';
import { restorePage, trash } from '../../modules/knowledge/index.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { requireModuleOn } from '../module-switch.ts';
import { readContext } from '../read-context.ts';
import { errorPage, sendPage, viewerOf } from '../respond.ts';
import { csrfMatches, csrfToken, foreignOrigin, type WebDeps } from '../session.ts';
import { requireSession } from './guard.ts';

/**
 * /knowledge/:space/trash: a space's deleted pages, for those who manage it (spec 3.5), each
 * with Restore: the page and what was deleted with it come back. With the knowledge base switched
 * off it shows and restores nothing, as the API does.
 */
export function knowledgeTrashRoutes(app: FastifyInstance, deps: WebDeps): void {
  app.get('/knowledge/:space/trash', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const { space } = request.params as { space: string };
    try {
      const ctx = await readContext(deps, session, request.id, request.log);
      requireModuleOn(ctx.settings, 'knowledge');
      const bin = await trash(ctx, space);
      const csrf = csrfToken(session.cookie, `trash:${bin.space}`);
      const restored = (request.query as { restored?: string }).restored;
      const body = html`<div class="card"><h1>Trash of ${bin.name}</h1>
${restored ? html`<p role="status" id="restored">Restored “${restored}”.</p>` : ''}
${
  bin.pages.length
    ? html`<table><thead><tr><th>Page</th><th>Deleted</th><th></th></tr></thead><tbody>${bin.pages.map(
        (p) => html`<tr data-slug="${p.slug}"><td>${p.title} <span class="muted">${p.slug}</span></td><td class="muted">${toTimestamp(p.edited_at).slice(0, 10)}</td>
<td><form class="inline" method="post" action="/knowledge/${bin.space}/trash/${p.id}/restore"><input type="hidden" name="csrf" value="${csrf}"><button type="submit">Restore</button></form></td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted" id="empty">The trash is empty.</p>`
}</div>`;
      return sendPage(reply, layout(`Trash of ${bin.name}`, body, viewerOf(session)));
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) return errorPage(reply, error.status === 403 ? 403 : 404, error.message, viewerOf(session));
      throw error;
    }
  });

  app.post('/knowledge/:space/trash/:page/restore', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const { space, page } = request.params as { space: string; page: string };
    const form = (request.body ?? {}) as Record<string, unknown>;
    if (foreignOrigin(request, deps) || !csrfMatches(session.cookie, `trash:${space}`, form.csrf)) {
      return errorPage(reply, 403, 'This form has expired or did not come from this site.', viewerOf(session));
    }
    if (!isUuid(page)) return errorPage(reply, 404, 'No such page in the trash', viewerOf(session));
    try {
      const ctx = await readContext(deps, session, request.id, request.log, 'write');
      requireModuleOn(ctx.settings, 'knowledge');
      // the member's grants are read before the transaction takes the embedded database's one connection
      await ctx.ability.visibleProjectIds();
      const restored = await ctx.db.transaction().execute((trx) => restorePage({ ...ctx, db: trx }, space, page));
      return reply.redirect(`/knowledge/${encodeURIComponent(space)}/trash?restored=${encodeURIComponent(restored.title)}`, 303);
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) return errorPage(reply, error.status === 403 ? 403 : 404, error.message, viewerOf(session));
      throw error;
    }
  });
}
