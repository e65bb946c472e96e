import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TicketDetail } from '../../../modules/tickets/index.ts';
import type { FormState } from '../../forms.ts';
import type { Html } from '../../html.ts';
import type { PagesDeps, Session } from '../../session.ts';

/** A form of the ticket page sent back to the member: refused, or asked for its preview. */
export interface SentForm {
  /** Which form: `comment`, `worklog`, … (the section that draws it knows its name). */
  name: string;
  state: FormState;
}

/** What every section of the ticket page is drawn from. */
export interface TicketView {
  deps: PagesDeps;
  request: FastifyRequest;
  session: Session;
  ticket: TicketDetail;
  /** Keys of the reader's projects: their ticket keys in texts become links. */
  keys: ReadonlySet<string>;
  /** A form of the page as the member left it, drawn again with its errors or its preview. */
  sent?: SentForm;
}

/**
 * A part of the ticket page (facts, description, comments, …): the page is the list of its
 * sections, each drawing itself from the view and reading what else it needs.
 */
export type TicketSection = (view: TicketView) => Html | Promise<Html>;

/** The ticket page drawn again with one of its forms as the member left it (a refusal without script, a preview). */
export type ShowTicketPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  session: Session,
  key: string,
  sent?: SentForm,
  status?: number,
) => Promise<FastifyReply>;

/** The state of `form` when it is the one the member sent, else undefined. */
export function sentState(view: TicketView, form: string): FormState | undefined {
  return view.sent?.name === form ? view.sent.state : undefined;
}
