import { sql } from 'kysely';
import type { Context } from '../../../core/context.ts';
import { ApiError, invalid, notFound } from '../../../core/errors.ts';
import { recordHistory } from '../../../core/history.ts';
import { loadVisibleTicket } from '../load.ts';
import { announce } from '../notify.ts';
import { touchTicket, type TicketState } from '../repo.ts';
import { declaredType, safeFileName } from './file-names.ts';
import { mayDoExtra, requireExtra } from './policy.ts';
import type { AddedAttachments, Attachment, AttachmentFile, AttachmentList, RemovedAttachment, UploadBody } from './schemas.ts';

const MIB = 1024 * 1024;

/** A size as the pages say it: `25 MB`, `1.5 MB`, `700 KB`, `12 bytes` (1 MB being 1024 × 1024 bytes). */
export function sizeWords(bytes: number): string {
  if (bytes >= MIB) return `${Number((bytes / MIB).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
}

/** 413 `payload_too_large`: the file named is over the workspace's limit; nothing of the upload is kept. */
export function fileTooLarge(filename: string, maxBytes: number): ApiError {
  return new ApiError(
    'payload_too_large',
    `${safeFileName(filename)} is larger than ${sizeWords(maxBytes)}, the largest file this workspace takes; nothing was attached`,
  );
}

interface AttachmentRow {
  id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  uploaded_by: string | null;
  uploader_name: string | null;
  created_at: string;
}

/** The attachments of a ticket, oldest first, with who added them (never their bytes). */
async function attachmentRows(ctx: Context, ticketId: string, ids?: readonly string[]): Promise<AttachmentRow[]> {
  const { rows } = await sql<AttachmentRow>`
    select a.id, a.filename, a.content_type, a.size_bytes, a.uploaded_by, m.display_name as uploader_name, a.created_at
    from ticket_attachments a left join members m on m.id = a.uploaded_by
    where a.ticket_id = ${ticketId}::uuid ${ids ? sql`and a.id = any(${[...ids]}::uuid[])` : sql``}
    -- an upload's files share its moment: within it, the order sent (rows never change, so none moves in the heap)
    order by a.created_at, a.ctid`.execute(ctx.db);
  return rows;
}

interface Rights {
  attach: boolean;
  removeAny: boolean;
}

async function rightsOn(ctx: Context, ticket: TicketState): Promise<Rights> {
  const [attach, removeAny] = await Promise.all([mayDoExtra(ctx, 'attach', ticket), mayDoExtra(ctx, 'remove_any_attachment', ticket)]);
  return { attach, removeAny };
}

/** Its uploader removes a file while they may still attach; who may edit any ticket, anyone's. */
const mayDelete = (ctx: Context, rights: Rights, uploadedBy: string | null) =>
  rights.removeAny || (rights.attach && uploadedBy === ctx.actor.memberId);

function present(ctx: Context, rights: Rights, row: AttachmentRow): Attachment {
  return {
    id: row.id,
    filename: row.filename,
    content_type: row.content_type,
    size_bytes: row.size_bytes,
    uploaded_by: row.uploaded_by && row.uploader_name !== null ? { id: row.uploaded_by, name: row.uploader_name } : null,
    created_at: row.created_at,
    may_delete: mayDelete(ctx, rights, row.uploaded_by),
  };
}

/** The files on a ticket the member can see, and what they may do with them. */
export async function listAttachments(ctx: Context, key: string): Promise<AttachmentList> {
  const ticket = await loadVisibleTicket(ctx, key);
  const [rights, rows] = await Promise.all([rightsOn(ctx, ticket), attachmentRows(ctx, ticket.id)]);
  return {
    key: ticket.key,
    max_bytes: ctx.settings.attachmentMaxBytes,
    may_add: rights.attach,
    attachments: rows.map((row) => present(ctx, rights, row)),
  };
}

/**
 * What a change of its files does to the ticket, as any change: updated now, its search document
 * rebuilt (attachment names are among its words, spec 4.2), its watchers but the member told.
 */
async function announceFiles(ctx: Context, ticket: TicketState): Promise<void> {
  await touchTicket(ctx.db, ticket.id, { text: 'changed' });
  await announce(ctx, { ticket: { id: ticket.id, key: ticket.key }, kind: 'updated', payload: { changes: ['attachments'] } });
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Attaches the files to the ticket, all or none: each within the workspace's limit (else 413,
 * and nothing is kept), with one history entry naming them all.
 */
export async function addAttachments(ctx: Context, key: string, body: UploadBody): Promise<AddedAttachments> {
  const ticket = await loadVisibleTicket(ctx, key, true);
  await requireExtra(ctx, 'attach', ticket);
  const max = ctx.settings.attachmentMaxBytes;
  const files = body.files.map((file, index) => {
    if (file.content_base64.length % 4 !== 0 || !BASE64.test(file.content_base64)) {
      throw invalid(`/files/${index}/content_base64`, 'must be base64');
    }
    const content = Buffer.from(file.content_base64, 'base64');
    if (content.byteLength > max) throw fileTooLarge(file.name, max);
    return { filename: safeFileName(file.name), content_type: declaredType(file.content_type), content };
  });
  const inserted = await ctx.db
    .insertInto('ticket_attachments')
    .values(files.map((file) => ({ ...file, ticket_id: ticket.id, size_bytes: file.content.byteLength, uploaded_by: ctx.actor.memberId })))
    .returning('id')
    .execute();
  await recordHistory(ctx, {
    entityType: 'ticket',
    entityId: ticket.id,
    kind: 'attached',
    changes: files.map((file) => ({ field: 'attachment', from: null, to: file.filename })),
  });
  await announceFiles(ctx, ticket);
  const rights = await rightsOn(ctx, ticket);
  const rows = await attachmentRows(
    ctx,
    ticket.id,
    inserted.map((row) => row.id),
  );
  return { key: ticket.key, added: rows.map((row) => present(ctx, rights, row)) };
}

/** Deletes one file: by its uploader, or by who may edit any ticket of the project; the history says so. */
export async function deleteAttachment(ctx: Context, key: string, id: string): Promise<RemovedAttachment> {
  const ticket = await loadVisibleTicket(ctx, key, true);
  const [row] = await attachmentRows(ctx, ticket.id, [id]);
  if (!row) throw notFound('Attachment');
  const rights = await rightsOn(ctx, ticket);
  if (!mayDelete(ctx, rights, row.uploaded_by)) {
    if (row.uploaded_by === ctx.actor.memberId) await requireExtra(ctx, 'attach', ticket);
    await requireExtra(ctx, 'remove_any_attachment', ticket);
  }
  await ctx.db.deleteFrom('ticket_attachments').where('id', '=', row.id).execute();
  await recordHistory(ctx, {
    entityType: 'ticket',
    entityId: ticket.id,
    kind: 'attachment_removed',
    changes: [{ field: 'attachment', from: row.filename, to: null }],
  });
  await announceFiles(ctx, ticket);
  return { key: ticket.key, filename: row.filename };
}

/** One file's bytes, to a member who can see its ticket. */
export async function readAttachment(ctx: Context, key: string, id: string): Promise<AttachmentFile> {
  const ticket = await loadVisibleTicket(ctx, key);
  const file = await ctx.db
    .selectFrom('ticket_attachments')
    .select(['filename', 'content_type', 'size_bytes', 'content'])
    .where('id', '=', id)
    .where('ticket_id', '=', ticket.id)
    .executeTakeFirst();
  if (!file) throw notFound('Attachment');
  return file;
}
