import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { writeAudit } from '../../../core/audit.ts';
import {
  MODULE_LABELS,
  MODULE_SWITCHES,
  READ_ONLY_MESSAGE,
  readSettings,
  setSwitch,
  SETTING_SWITCHES,
  switchAuditEntry,
  switchIsOn,
  type SettingSwitch,
  type SwitchableModule,
  type WorkspaceSettings,
} from '../../../core/settings.ts';
import { AttachmentLimitBody, MOST_MEGABYTES, type AttachmentLimit } from '../../../modules/tickets/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember } from '../../actions.ts';
import { button, field, form } from '../../components/index.ts';
import { EMPTY_FORM, formInput, refusedForm, type FormState } from '../../forms.ts';
import { html, type Html } from '../../html.ts';
import { builtModules } from '../../module-availability.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import type { PagesDeps, Session } from '../../session.ts';
import { requireSession } from '../../require-session.ts';

const LABELS: Record<SettingSwitch, string> = {
  rest_api: 'REST API (/api/v1)',
  mcp: 'MCP server (/mcp)',
  ...(Object.fromEntries(MODULE_SWITCHES.map((m) => [m, `Module: ${MODULE_LABELS[m]}`])) as Record<
    (typeof MODULE_SWITCHES)[number],
    string
  >),
};

/** The operator's switch, shown and never turned here: only `atrium settings set read_only` turns it (spec 5.6). */
function readOnlyLine(settings: WorkspaceSettings): Html {
  const state = settings.readOnly ? html`<strong>on</strong> <span class="error">${READ_ONLY_MESSAGE}.</span>` : html`<strong>off</strong>`;
  return html`<p id="read-only">Read-only: ${state}
<span class="muted">Only the operator turns it, with the command line (atrium settings set read_only).</span></p>`;
}

/** The ways in are always there; a module's switch only once the module is built. */
function offered(name: SettingSwitch, built: ReadonlySet<SwitchableModule>): boolean {
  return name === 'rest_api' || name === 'mcp' || built.has(name);
}

const MIB = 1024 * 1024;

/** The largest file an attachment may be: run as the web-only operation set_attachment_limit. */
function attachmentLimitForm(session: Session, settings: WorkspaceSettings, state: FormState = EMPTY_FORM): Html {
  const content = html`${field({
    name: 'max_megabytes',
    label: 'Largest attachment, in MB',
    hint: `Each file attached to a ticket may be at most this large: 1 to ${MOST_MEGABYTES} MB.`,
    type: 'number',
    value: String(Math.round(settings.attachmentMaxBytes / MIB)),
    state,
  })}
<div class="form-actions">${button('Save the limit')}</div>`;
  return form(session, '/admin/settings/attachments', content, { id: 'attachment-limit', state });
}

/** The administrator's settings page: the same switches the CLI turns. */
const ONLY_ADMINS = 'Only administrators can change the workspace settings. Ask one of them to switch a module or a way in on or off.';

export function adminSettingsRoutes(app: FastifyInstance, deps: PagesDeps): void {
  /** The page; `limit`: the attachment limit's form as the administrator left it (a refusal without script). */
  const showSettings = async (request: FastifyRequest, reply: FastifyReply, session: Session, limit?: FormState, status = 200) => {
    const settings = await readSettings(deps.db);
    const built = builtModules();
    const saved = (request.query as { saved?: unknown }).saved === '1';
    const switches = html`<fieldset><legend>Ways in and modules</legend>${SETTING_SWITCHES.map((name) =>
      offered(name, built)
        ? html`<label><input type="checkbox" name="${name}" value="on"${switchIsOn(settings, name) ? html` checked` : ''}>
${LABELS[name]}</label>`
        : html`<p class="unavailable" data-switch="${name}">${LABELS[name]}: <span class="muted">not available yet</span></p>`,
    )}</fieldset>
<div class="form-actions">${button('Save')}${saved ? html` <span id="saved" role="status">Saved.</span>` : ''}</div>`;
    const body = html`<div class="card"><h1>Workspace settings</h1>
<p class="muted">Switching a way in off refuses its tokens with 403 until it is switched on again; nothing is deleted.</p>
${readOnlyLine(settings)}
${form(session, '/admin/settings', switches, { plain: true })}
<h2 id="attachments-heading">Attachments</h2>
${attachmentLimitForm(session, settings, limit)}</div>`;
    return sendMemberPage(
      request,
      reply,
      deps,
      session,
      { title: 'Settings', body, section: 'settings', crumbs: [{ label: 'Settings' }] },
      status,
    );
  };

  app.get('/admin/settings', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!session.isAdmin) return memberErrorPage(reply, deps, session, 403, ONLY_ADMINS, [{ label: 'Settings' }]);
    return showSettings(request, reply, session);
  });

  app.post('/admin/settings', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const { session, values } = post;
    if (!session.isAdmin) return memberErrorPage(reply, deps, session, 403, ONLY_ADMINS, [{ label: 'Settings' }]);
    const built = builtModules();
    await deps.db.transaction().execute(async (trx) => {
      const settings = await readSettings(trx);
      for (const name of SETTING_SWITCHES) {
        // a module not built yet has no checkbox: its absence from the form is not a choice
        if (!offered(name, built)) continue;
        const wanted = values[name] === 'on';
        if (wanted === switchIsOn(settings, name)) continue;
        await setSwitch(trx, name, wanted);
        // the administrator in person: no token or application stands between
        await writeAudit(trx, { actorId: session.memberId, via: null }, switchAuditEntry(name, wanted));
      }
    });
    return reply.redirect('/admin/settings?saved=1', 303);
  });

  app.post('/admin/settings/attachments', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const body = formInput(AttachmentLimitBody, post.values);
    const outcome = await runAsMember<AttachmentLimit>(deps, post, 'set_attachment_limit', { body });
    if (!outcome.ok) {
      const state = refusedForm(outcome.error, post.values, ['max_megabytes']);
      const settings = await readSettings(deps.db);
      return answerRefused(reply, deps, post, outcome.error, {
        page: (status) => showSettings(request, reply, post.session, state, status),
        fragment: () => attachmentLimitForm(post.session, settings, state),
      });
    }
    const settings = await readSettings(deps.db);
    return answerDone(reply, deps, post, {
      to: '/admin/settings',
      flash: { kind: 'success', text: `Each attachment may now be up to ${Math.round(outcome.value.max_bytes / MIB)} MB.` },
      fragment: () => attachmentLimitForm(post.session, settings),
    });
  });
}
