import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentSession, type Session, type WebDeps } from './session.ts';

/** The logged-in member, or null after sending the browser to log in (and back here after). */
export async function requireSession(request: FastifyRequest, reply: FastifyReply, deps: WebDeps): Promise<Session | null> {
  const session = await currentSession(request, deps);
  if (session) return session;
  const back = request.method === 'GET' ? request.url : '/agents';
  reply.redirect(`/login?return_to=${encodeURIComponent(back)}`, 303);
  return null;
}
