import { Type, type Static } from 'typebox';
import { recordAudit } from '../../../core/audit.ts';
import type { Context } from '../../../core/context.ts';
import { forbidden } from '../../../core/errors.ts';

/** The most an administrator may let one file be: 1 GiB (a request holds it whole, in memory, twice). */
export const MOST_MEGABYTES = 1024;
const MIB = 1024 * 1024;

export const AttachmentLimitBody = Type.Object({
  max_megabytes: Type.Integer({ minimum: 1, maximum: MOST_MEGABYTES, description: 'the largest file an attachment may be, in MB' }),
});

export const AttachmentLimit = Type.Object({ max_bytes: Type.Integer() });
export type AttachmentLimit = Static<typeof AttachmentLimit>;

/**
 * The administrator's per-file limit of attachments, a workspace setting: read by every node at
 * its next request (config_version), written to the audit log as the other settings are.
 */
export async function setAttachmentLimit(ctx: Context, megabytes: number): Promise<AttachmentLimit> {
  if (!ctx.actor.isAdmin) throw forbidden('Only administrators set the largest file an attachment may be');
  const bytes = megabytes * MIB;
  const before = ctx.settings.attachmentMaxBytes;
  if (bytes !== before) {
    await ctx.db
      .updateTable('workspace_settings')
      .set((eb) => ({ attachment_max_bytes: bytes, config_version: eb('config_version', '+', 1), updated_at: ctx.now().toISOString() }))
      .where('id', '=', 1)
      .execute();
    await recordAudit(ctx, {
      action: 'setting.changed',
      targetType: 'setting',
      targetId: null,
      target: 'workspace setting attachment_max_bytes',
      changes: [{ field: 'attachment_max_bytes', from: before, to: bytes }],
    });
  }
  return { max_bytes: bytes };
}
