import type { FastifyInstance } from 'fastify';
import type { Page, PageTree, SpaceList } from '../../../modules/knowledge/index.ts';
import { runAsMember } from '../../actions.ts';
import { emptyState } from '../../components/index.ts';
import { shownTime } from '../../format.ts';
import { html, Html } from '../../html.ts';
import { moduleOpen } from '../../module-gate.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import { renderRichText } from '../../rich-text.ts';
import type { PagesDeps } from '../../session.ts';
import { pageHref } from '../../links.ts';
import { requireSession } from '../../require-session.ts';

/** A space's page tree as nested lists (the tree comes in tree order, each page with its depth). */
function tree(space: string, pages: PageTree['pages']): Html {
  let depth = 0;
  let out = '<ul class="tree">';
  pages.forEach((page, i) => {
    if (i > 0) out += page.depth > depth ? '<ul>' : `</li>${'</ul></li>'.repeat(depth - page.depth)}`;
    depth = page.depth;
    out +=
      html`<li><a href="${pageHref(space, page.slug)}">${page.title}</a>${page.kind === 'folder' ? html` <span class="muted">folder</span>` : ''}`
        .value;
  });
  return new Html(`${out}</li>${'</ul></li>'.repeat(depth)}</ul>`);
}

const KNOWLEDGE = { label: 'Knowledge base', href: '/knowledge' };

/**
 * /knowledge: the spaces the member may read, each with its page tree (list_spaces and
 * get_page_tree, as the API answers them); /knowledge/:space/pages/:page reads one page.
 */
export function knowledgeRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/knowledge', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!(await moduleOpen(reply, deps, session, 'knowledge'))) return reply;
    const as = { request, session };
    const listed = await runAsMember<SpaceList>(deps, as, 'list_spaces', {});
    if (!listed.ok) return memberErrorPage(reply, deps, session, listed.error.status, listed.error.message);
    const trees = await Promise.all(
      listed.value.spaces.map((space) => runAsMember<PageTree>(deps, as, 'get_page_tree', { params: { space: space.key } })),
    );
    const sections = listed.value.spaces.map((space, i) => {
      const pages = trees[i]!.ok ? (trees[i] as { value: PageTree }).value.pages : [];
      return html`<section class="card" id="space-${space.key}" aria-labelledby="space-${space.key}-name"><h2 id="space-${space.key}-name">${space.name} <span class="muted">${space.key}</span></h2>
${pages.length ? tree(space.key, pages) : emptyState(`space-${space.key}-empty`, 'No pages yet.')}
${space.can_manage ? html`<p><a href="/knowledge/${encodeURIComponent(space.key)}/trash">Trash of ${space.name}</a></p>` : ''}</section>`;
    });
    const body = html`<div class="card"><h1>Knowledge base</h1><p class="muted">The spaces you may read, with their pages.</p></div>${
      sections.length
        ? sections
        : html`<div class="card">${emptyState('spaces-none', 'No space is open to you yet.', 'A space is opened to you by its project’s roles or by its own grants.')}</div>`
    }`;
    return sendMemberPage(request, reply, deps, session, {
      title: 'Knowledge base',
      body,
      section: 'knowledge',
      crumbs: [{ label: 'Knowledge base' }],
    });
  });

  app.get('/knowledge/:space/pages/:page', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!(await moduleOpen(reply, deps, session, 'knowledge'))) return reply;
    const params = request.params as { space: string; page: string };
    const read = await runAsMember<Page>(deps, { request, session }, 'get_page', { params });
    if (!read.ok) return memberErrorPage(reply, deps, session, read.error.status === 403 ? 403 : 404, read.error.message, [KNOWLEDGE]);
    const page = read.value;
    const body = html`<article class="card"><h1 id="page-title">${page.title}</h1>
<p class="muted">${page.path.length ? html`${page.path.join(' / ')} · ` : ''}version ${page.version}, edited ${shownTime(page.edited_at, session.timezone)}${page.editor ? html` by ${page.editor.name}` : ''}</p>
<div id="page-body">${renderRichText(page.body)}</div></article>`;
    return sendMemberPage(request, reply, deps, session, {
      title: page.title,
      body,
      section: 'knowledge',
      crumbs: [KNOWLEDGE, { label: page.space, href: `/knowledge#space-${page.space}` }, { label: page.title }],
    });
  });
}
