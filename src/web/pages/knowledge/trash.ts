import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../../core/errors.ts';
import { trash, type PageSummary } from '../../../modules/knowledge/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember } from '../../actions.ts';
import { button, emptyState, form } from '../../components/index.ts';
import { shownTime } from '../../format.ts';
import { html } from '../../html.ts';
import { moduleOpen } from '../../module-gate.ts';
import { readContext } from '../../read-context.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import type { PagesDeps } from '../../session.ts';
import { requireSession } from '../../require-session.ts';

/**
 * /knowledge/:space/trash: a space's deleted pages, for those who manage it (spec 3.5), each
 * with Restore (the operation restore_page): the page and what was deleted with it come back.
 * With the knowledge base switched off it shows and restores nothing, as the API does.
 */
export function knowledgeTrashRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/knowledge/:space/trash', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!(await moduleOpen(reply, deps, session, 'knowledge'))) return reply;
    const { space } = request.params as { space: string };
    try {
      const ctx = await readContext(deps, session, request.id, request.log);
      const bin = await trash(ctx, space);
      const restore = (id: string, title: string) =>
        form(session, `/knowledge/${bin.space}/trash/${id}/restore`, button('Restore', { label: `Restore ${title}` }), {
          plain: true,
          className: 'inline',
        });
      const body = html`<div class="card"><h1>Trash of ${bin.name}</h1>
${
  bin.pages.length
    ? html`<table class="stack"><thead><tr><th scope="col">Page</th><th scope="col">Deleted</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${bin.pages.map(
        (
          p,
        ) => html`<tr data-slug="${p.slug}"><td data-label="Page">${p.title} <span class="muted">${p.slug}</span></td><td class="muted" data-label="Deleted">${shownTime(p.edited_at, session.timezone)}</td>
<td>${restore(p.id, p.title)}</td></tr>`,
      )}</tbody></table>`
    : emptyState('empty', 'The trash is empty.', 'A deleted page waits here until a manager of the space restores it.')
}</div>`;
      return sendMemberPage(request, reply, deps, session, {
        title: `Trash of ${bin.name}`,
        body,
        section: 'knowledge',
        crumbs: [
          { label: 'Knowledge base', href: '/knowledge' },
          { label: bin.name, href: `/knowledge#space-${bin.space}` },
          { label: 'Trash' },
        ],
      });
    } catch (error) {
      if (error instanceof ApiError && error.status < 500)
        return memberErrorPage(reply, deps, session, error.status === 403 ? 403 : 404, error.message, [
          { label: 'Knowledge base', href: '/knowledge' },
        ]);
      throw error;
    }
  });

  app.post('/knowledge/:space/trash/:page/restore', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const { space, page } = request.params as { space: string; page: string };
    const restored = await runAsMember<PageSummary>(deps, post, 'restore_page', { params: { space, page } });
    if (!restored.ok) return answerRefused(reply, deps, post, restored.error);
    return answerDone(reply, deps, post, {
      to: `/knowledge/${encodeURIComponent(space)}/trash`,
      flash: { kind: 'success', text: `Restored “${restored.value.title}”.` },
    });
  });
}
