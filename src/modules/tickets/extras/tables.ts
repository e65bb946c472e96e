import type { ColumnType, Generated } from 'kysely';

/** A file on a ticket (migration 0034): its bytes beside its row, read only by a download. */
export interface TicketAttachmentsTable {
  id: Generated<string>;
  ticket_id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  content: ColumnType<Uint8Array, Uint8Array, never>;
  uploaded_by: string | null;
  created_at: Generated<string>;
}

/** A member's vote for a ticket: one each (migration 0034). */
export interface TicketVotesTable {
  ticket_id: string;
  member_id: string;
  created_at: Generated<string>;
}

export interface TicketExtraTables {
  ticket_attachments: TicketAttachmentsTable;
  ticket_votes: TicketVotesTable;
}

declare module '../../../storage/schema.ts' {
  interface DB extends TicketExtraTables {}
}
