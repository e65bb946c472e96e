import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ApiError, invalid } from '../../../core/errors.ts';
import { readSettings } from '../../../core/settings.ts';
import {
  contentDisposition,
  fileTooLarge,
  MAX_FILES_AT_ONCE,
  shownInPlace,
  sizeWords,
  type AddedAttachments,
  type AttachmentFile,
  type AttachmentList,
  type RemovedAttachment,
} from '../../../modules/tickets/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember } from '../../actions.ts';
import { button, emptyState, form, table } from '../../components/index.ts';
import { shownTime } from '../../format.ts';
import { html, type Html } from '../../html.ts';
import { personLink, ticketHref } from '../../links.ts';
import { errorPage, memberErrorPage } from '../../respond.ts';
import { requireSession } from '../../require-session.ts';
import { currentSession, foreignOrigin, type PagesDeps, type Session } from '../../session.ts';
import { multipartBoundary, readMultipart, UnreadableUpload } from '../../uploads.ts';

/** A page request of the member: what runs an operation for them. */
interface Asking {
  request: FastifyRequest;
  session: Session;
}

const attachmentsHref = (key: string) => `${ticketHref(key)}/attachments`;
const fileHref = (key: string, id: string) => `${attachmentsHref(key)}/${id}`;

/** A download's own policy: nothing in it runs or loads, whatever it holds (the pages' policy is for pages). */
const DOWNLOAD_POLICY = "default-src 'none'; sandbox";

function deleteForm(session: Session, key: string, file: AttachmentList['attachments'][number]): Html {
  return form(session, `${fileHref(key, file.id)}/delete`, button('Delete', { kind: 'danger', label: `Delete ${file.filename}` }), {
    target: '#attachments',
  });
}

function uploadForm(session: Session, list: AttachmentList, problem?: string): Html {
  const hint = `Choose one or several files, each up to ${sizeWords(list.max_bytes)}.`;
  const content = html`<div class="field"><label for="field-files">Files</label>
<p class="hint" id="field-files-hint">${hint}</p>
<input type="file" id="field-files" name="files" multiple aria-describedby="field-files-hint${problem ? ' field-files-error' : ''}"${problem ? html` aria-invalid="true"` : ''}>
${problem ? html`<p class="field-error" id="field-files-error">${problem}</p>` : ''}</div>
<div class="form-actions">${button('Attach')}</div>`;
  return form(session, attachmentsHref(list.key), content, { id: 'attach', target: '#attachments', multipart: true });
}

function attachmentsCard(session: Session, list: AttachmentList, problem?: string): Html {
  const files = list.attachments.length
    ? table(
        [
          { header: 'File', cell: (f) => html`<a href="${fileHref(list.key, f.id)}">${f.filename}</a>` },
          { header: 'Size', cell: (f) => sizeWords(f.size_bytes) },
          { header: 'Added by', cell: (f) => personLink(f.uploaded_by, 'Someone') },
          { header: 'Added', cell: (f) => shownTime(f.created_at, session.timezone) },
          { header: '', cell: (f) => (f.may_delete ? deleteForm(session, list.key, f) : '') },
        ],
        list.attachments,
        { id: 'attachment-list', caption: `Files attached to ${list.key}` },
      )
    : emptyState('no-attachments', 'No attachments', list.may_add ? 'Attach a file below.' : undefined);
  return html`<section class="card" id="attachments" aria-labelledby="attachments-heading">
<h2 id="attachments-heading">Attachments</h2>
${files}
${list.may_add ? uploadForm(session, list, problem) : ''}
</section>`;
}

/** The ticket page's Attachments section: its files, and the upload form to who may attach. */
export async function attachmentsSection(deps: PagesDeps, asking: Asking, key: string, problem?: string): Promise<Html> {
  const listed = await runAsMember<AttachmentList>(deps, asking, 'list_attachments', { params: { key } });
  return listed.ok ? attachmentsCard(asking.session, listed.value, problem) : html``;
}

/**
 * A form that will not be read: refused before its body is, and the connection closed after the
 * answer, so a large upload is not taken in only to be dropped.
 */
function closing(reply: FastifyReply): FastifyReply {
  return reply.header('Connection', 'close');
}

const names = (files: readonly { filename: string }[]) => files.map((f) => f.filename).join(', ');

/**
 * Attachments on the ticket page: upload (multipart, read as it streams with the workspace's
 * per-file limit), download (served so that nothing in a file runs), delete. Each runs its
 * web-only operation as the member.
 */
export function attachmentRoutes(app: FastifyInstance, deps: PagesDeps): void {
  void app.register(async (files) => {
    // the body of an upload is read by its route, as it streams, not parsed ahead of it
    files.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
    // a download's headers, after the pages' own (hooks of this context run after its parent's)
    files.addHook('onSend', async (request, reply, payload) => {
      if (request.method === 'GET' && reply.hasHeader('Content-Disposition')) reply.header('Content-Security-Policy', DOWNLOAD_POLICY);
      return payload;
    });

    files.post('/browse/:key/attachments', async (request, reply) => {
      const { key } = request.params as { key: string };
      const boundary = multipartBoundary(request.headers['content-type']);
      // who and from where, before a byte of the body is read: acceptPost answers a refusal
      if (!boundary || !(await currentSession(request, deps)) || foreignOrigin(request, deps)) {
        if (boundary) {
          await acceptPost(request, closing(reply), deps);
          return reply;
        }
        return errorPage(reply, 415, 'Files are sent as a multipart form. Open the ticket again and attach them from there.');
      }
      const settings = await readSettings(deps.db);
      let read: Awaited<ReturnType<typeof readMultipart>>;
      try {
        read = await readMultipart(request.raw, boundary, { fileBytes: settings.attachmentMaxBytes, maxFiles: MAX_FILES_AT_ONCE });
      } catch (error) {
        if (!(error instanceof UnreadableUpload)) throw error;
        return errorPage(
          closing(reply),
          413,
          'This upload could not be read, or is far larger than the workspace takes. Nothing was attached.',
        );
      }
      request.body = read.fields;
      const post = await acceptPost(request, reply, deps);
      if (!post) return reply;
      const again = (problem: string) => () => attachmentsSection(deps, post, key, problem);
      let refusal: ApiError | null = null;
      if (read.tooLarge !== null) refusal = fileTooLarge(read.tooLarge, settings.attachmentMaxBytes);
      else if (read.tooMany) refusal = invalid('/files', `choose at most ${MAX_FILES_AT_ONCE} files at once`);
      else if (read.files.length === 0) refusal = invalid('/files', 'choose at least one file');
      if (refusal) return answerRefused(reply, deps, post, refusal, { fragment: again(refusal.message.replace(/^\/files: /, '')) });
      const body = {
        files: read.files.map((file) => ({
          name: file.name,
          content_type: file.contentType,
          content_base64: file.content.toString('base64'),
        })),
      };
      const outcome = await runAsMember<AddedAttachments>(deps, post, 'add_attachments', { params: { key }, body });
      if (!outcome.ok) {
        const error = outcome.error;
        // a file too large or a name refused is said at the field; anything else where the member is
        const atField = error.status === 413 || error.status === 422;
        return answerRefused(reply, deps, post, error, atField ? { fragment: again(error.message) } : {});
      }
      const { key: shown, added } = outcome.value;
      return answerDone(reply, deps, post, {
        to: `${ticketHref(shown)}#attachments`,
        flash: { kind: 'success', text: `Attached ${names(added)} to ${shown}.` },
        fragment: () => attachmentsSection(deps, post, shown),
      });
    });

    files.post('/browse/:key/attachments/:attachment/delete', async (request, reply) => {
      const post = await acceptPost(request, reply, deps);
      if (!post) return reply;
      const params = request.params as { key: string; attachment: string };
      const outcome = await runAsMember<RemovedAttachment>(deps, post, 'delete_attachment', { params });
      if (!outcome.ok) return answerRefused(reply, deps, post, outcome.error);
      const { key: shown, filename } = outcome.value;
      return answerDone(reply, deps, post, {
        to: `${ticketHref(shown)}#attachments`,
        flash: { kind: 'success', text: `Deleted ${filename} from ${shown}.` },
        fragment: () => attachmentsSection(deps, post, shown),
      });
    });

    files.get('/browse/:key/attachments/:attachment', async (request, reply) => {
      const session = await requireSession(request, reply, deps);
      if (!session) return reply;
      const params = request.params as { key: string; attachment: string };
      const outcome = await runAsMember<AttachmentFile>(deps, { request, session }, 'download_attachment', { params });
      if (!outcome.ok) {
        // an id that is no id names no file either
        const status = outcome.error.status === 422 ? 404 : outcome.error.status;
        const message = status === 404 && outcome.error.status === 422 ? 'Attachment not found' : outcome.error.message;
        return memberErrorPage(reply, deps, session, status, message);
      }
      const file = outcome.value;
      const content = Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength);
      return reply
        .code(200)
        .header('Content-Type', shownInPlace(file.content_type) ? file.content_type : 'application/octet-stream')
        .header('Content-Disposition', contentDisposition(file.filename, file.content_type))
        .header('X-Content-Type-Options', 'nosniff')
        .send(content);
    });
  });
}
