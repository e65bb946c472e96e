import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Access } from '../policy/ability.ts';

/** The member logged in on the browser at the authorization endpoint. */
export interface LoggedInMember {
  memberId: string;
  /** The browser session's hash: a consent is answered only from the session it was asked in. */
  sessionHash: string;
}

/** What the member is asked to allow, already stored as consent `consentId`. */
export interface ConsentQuestion {
  consentId: string;
  applicationName: string;
  redirectUri: string;
  requested: Access;
  resource: string;
}

/** The member's answer, read from this site's own consent form. */
export interface ConsentAnswer<M extends LoggedInMember> {
  member: M;
  consentId: string;
  approved: boolean;
  /** What the member chose; the engine still grants no more than was asked. */
  access: Access;
}

/** A form the pages would not take (session gone, another site's form, a stale token). */
export interface AnswerRefused<M extends LoggedInMember> {
  refused: string;
  member: M | null;
}

/**
 * All the authorization endpoint knows of the pages: who is logged in, and what they answered.
 * The pages render and guard their forms; the engine decides and issues. `M` is the pages' own
 * record of the member, handed back to them unchanged.
 */
export interface MemberPages<M extends LoggedInMember = LoggedInMember> {
  /** Cookies, form bodies and the pages' headers on the authorization endpoint. */
  install(app: FastifyInstance): Promise<void>;
  loggedIn(request: FastifyRequest): Promise<M | null>;
  askToLogIn(request: FastifyRequest, reply: FastifyReply, returnTo: string): FastifyReply;
  askConsent(reply: FastifyReply, member: M, question: ConsentQuestion): Promise<FastifyReply>;
  readAnswer(request: FastifyRequest): Promise<ConsentAnswer<M> | AnswerRefused<M>>;
  /** An error shown to the person in the browser; never a redirect. */
  problem(reply: FastifyReply, status: number, message: string, member?: M | null): FastifyReply;
}
