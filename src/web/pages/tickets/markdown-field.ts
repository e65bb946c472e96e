import type { FastifyInstance } from 'fastify';
import { visibleProjects } from '../../../modules/projects/index.ts';
import { acceptPost } from '../../actions.ts';
import { htmxHeaders } from '../../components/index.ts';
import { formValue, type FormState } from '../../forms.ts';
import { html, type Html } from '../../html.ts';
import { readContext } from '../../read-context.ts';
import { markdownToHtml } from '../../rich-text.ts';
import type { PagesDeps, Session } from '../../session.ts';

const PREVIEW = '/preview';

export interface MarkdownFieldOptions {
  name: string;
  label: string;
  hint?: string;
  optional?: boolean;
  /** The value shown when the form state holds none. */
  value?: string;
  state?: FormState;
  /** Project keys whose ticket keys the preview links. */
  keys?: ReadonlySet<string>;
  /** More attributes of the textarea (an htmx trigger). */
  attributes?: Html;
  /** Markup right under the textarea (the mention choices). */
  after?: Html;
  autofocus?: boolean;
}

export const fieldId = (name: string) => `field-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** Whether the member sent the form to see its preview rather than to save it (the Preview button without script). */
export const wantsPreview = (state: FormState | undefined) => formValue(state, 'intent') === 'preview';

function rendered(text: string, keys: ReadonlySet<string>): Html {
  return text.trim() === ''
    ? html`<p class="muted">Nothing to preview yet.</p>`
    : html`<p class="muted">Preview:</p><div class="rich">${markdownToHtml(text, keys)}</div>`;
}

/** A Markdown textarea alone (label, hint and error tied to it): what a mention completion swaps. */
export function markdownTextarea(options: MarkdownFieldOptions): Html {
  const id = fieldId(options.name);
  const error = options.state?.errors[options.name];
  const value = formValue(options.state, options.name, options.value ?? '');
  const described = [options.hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter((d) => d !== null).join(' ');
  return html`<textarea id="${id}" name="${options.name}"${described ? html` aria-describedby="${described}"` : ''}${
    error ? html` aria-invalid="true"` : ''
  }${options.autofocus ? html` autofocus` : ''}${options.attributes ?? ''}>${value}</textarea>`;
}

/**
 * A Markdown field with its Preview: with htmx the preview is drawn by the server beside the
 * field (POST /preview, the same renderer as the pages); without script the button sends the form
 * with `intent=preview`, and its handler draws the form again with the preview and saves nothing.
 */
export function markdownField(session: Session, options: MarkdownFieldOptions): Html {
  const id = fieldId(options.name);
  const error = options.state?.errors[options.name];
  const hint = options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : '';
  const problem = error ? html`<p class="field-error" id="${id}-error">${error}</p>` : '';
  const label = html`${options.label}${options.optional ? html` <span class="muted">(optional)</span>` : ''}`;
  const shown = wantsPreview(options.state) ? rendered(formValue(options.state, options.name), options.keys ?? new Set()) : '';
  return html`<div class="field"><label for="${id}">${label}</label>${hint}${markdownTextarea(options)}${problem}${options.after ?? ''}
<p><button type="submit" class="btn secondary" name="intent" value="preview" hx-post="${PREVIEW}" hx-target="#${id}-preview" hx-swap="innerHTML" hx-vals="${JSON.stringify({ source: options.name })}"${htmxHeaders(session, PREVIEW)}>Preview<span class="visually-hidden"> ${options.label.toLowerCase()}</span></button></p>
<div id="${id}-preview" class="preview" aria-live="polite">${shown}</div></div>`;
}

/** POST /preview: a form's Markdown drawn as its page will draw it, for the Preview button (htmx). Changes nothing. */
export function previewRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.post(PREVIEW, async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const source = formValue({ values: post.values, errors: {}, problem: null }, 'source');
    const text =
      source && source !== 'source' && source !== 'csrf' ? formValue({ values: post.values, errors: {}, problem: null }, source) : '';
    const ctx = await readContext(deps, post.session, request.id, request.log);
    const keys = new Set((await visibleProjects(ctx)).map((p) => p.key));
    return reply.type('text/html; charset=utf-8').send(rendered(text, keys).value);
  });
}
