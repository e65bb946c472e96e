import { Type, type Static } from 'typebox';
import { INT32_MAX, Nullable, StringEnum, Timestamp, Uuid } from '../../../core/schema-kit.ts';
import { Person } from '../../../core/shapes.ts';
import { LINK_RELATIONS } from '../link-relations.ts';
import { Link, TicketKey } from '../schemas.ts';

// The shapes of the browser's share of a ticket (spec 1, "Not in the API"): web-only operations,
// so none of them is named in the OpenAPI document.

/** How many files one upload takes. */
export const MAX_FILES_AT_ONCE = 20;

export const AttachmentParams = Type.Object({ key: TicketKey, attachment: Uuid });

export const UploadFile = Type.Object({
  name: Type.String({ maxLength: 1000, description: 'the name the browser gave; made safe before it is kept' }),
  content_type: Type.String({ maxLength: 255 }),
  content_base64: Type.String({ description: 'the bytes, in base64' }),
});

export const UploadBody = Type.Object({
  files: Type.Array(UploadFile, { minItems: 1, maxItems: MAX_FILES_AT_ONCE }),
});
export type UploadBody = Static<typeof UploadBody>;

export const Attachment = Type.Object({
  id: Uuid,
  filename: Type.String(),
  content_type: Type.String(),
  size_bytes: Type.Integer({ minimum: 0, maximum: INT32_MAX }),
  uploaded_by: Nullable(Person),
  created_at: Timestamp,
  /** Whether the reader may delete it (its uploader, or who may edit any ticket of the project). */
  may_delete: Type.Boolean(),
});
export type Attachment = Static<typeof Attachment>;

export const AttachmentList = Type.Object({
  key: TicketKey,
  /** The largest file an upload takes now, in bytes. */
  max_bytes: Type.Integer(),
  may_add: Type.Boolean(),
  attachments: Type.Array(Attachment),
});
export type AttachmentList = Static<typeof AttachmentList>;

export const AddedAttachments = Type.Object({ key: TicketKey, added: Type.Array(Attachment) });
export type AddedAttachments = Static<typeof AddedAttachments>;

export const RemovedAttachment = Type.Object({ key: TicketKey, filename: Type.String() });
export type RemovedAttachment = Static<typeof RemovedAttachment>;

/** A file to send: its bytes as kept, with what a download needs to be served safely. */
export const AttachmentFile = Type.Object({
  filename: Type.String(),
  content_type: Type.String(),
  size_bytes: Type.Integer(),
  content: Type.Unsafe<Uint8Array>({ description: 'the bytes' }),
});
export type AttachmentFile = Static<typeof AttachmentFile>;

export const VoteState = Type.Object({
  key: TicketKey,
  votes: Type.Integer({ minimum: 0 }),
  voted: Type.Boolean(),
  voters: Type.Array(Person),
  /** Null when the reader may vote; else why not (the reporter of the ticket). */
  refusal: Nullable(Type.String()),
});
export type VoteState = Static<typeof VoteState>;

export const HistoryEntry = Type.Object({
  at: Timestamp,
  kind: Type.String({ description: 'created, updated, fields, transitioned, commented, attached, …' }),
  actor: Nullable(Person),
  /** The token's name (an application's for OAuth) when an agent made it; null when done in the browser. */
  via: Nullable(Type.String()),
  changes: Type.Array(Type.Object({ field: Type.String(), from: Type.Unknown(), to: Type.Unknown() })),
});
export type HistoryEntry = Static<typeof HistoryEntry>;

export const TicketHistory = Type.Object({ key: TicketKey, entries: Type.Array(HistoryEntry) });
export type TicketHistory = Static<typeof TicketHistory>;

/** A relation as the ticket it is read from says it (spec 2.3, Link): the page's choice of the two directions. */
export const LinkRelationName = StringEnum(LINK_RELATIONS, { description: "read from this ticket, e.g. 'is blocked by'" });

export const LinkBody = Type.Object({
  relation: LinkRelationName,
  ticket: Type.String({ minLength: 1, maxLength: 40, description: "the other ticket's key" }),
});
export type LinkBody = Static<typeof LinkBody>;

export const TicketLinks = Type.Object({
  key: TicketKey,
  /** Whether the reader may add and remove this ticket's links (ticket:edit, spec 5.6). */
  may_edit: Type.Boolean(),
  /** Links to tickets the reader cannot see are left out, as in TicketDetail. */
  links: Type.Array(Link),
});
export type TicketLinks = Static<typeof TicketLinks>;

const VersionNames = Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
  maxItems: 200,
  description: "names of the project's versions, matched as names are (spec 2.1); the list given replaces the ticket's",
});

/** A ticket's versions as the browser sets them: each list sent replaces that list; one left out stays. */
export const VersionsBody = Type.Object({
  fix_versions: Type.Optional(VersionNames),
  affected_versions: Type.Optional(VersionNames),
});
export type VersionsBody = Static<typeof VersionsBody>;
