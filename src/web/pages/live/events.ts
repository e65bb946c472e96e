import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../../core/errors.ts';
import { getBoard } from '../../../modules/boards/index.ts';
import { getTicket } from '../../../modules/tickets/index.ts';
import type { ChangeEvent } from '../../../notifications/live-events.ts';
import { moduleRefusal } from '../../module-gate.ts';
import { readContext } from '../../read-context.ts';
import { currentSession, type Session, type PagesDeps, type WebDeps } from '../../session.ts';
import { batchedStreamChecks } from './stream-checks.ts';

/** Open streams one member may hold (tabs); one more is refused so a runaway page cannot hold the node's connections. */
export const STREAMS_PER_MEMBER = 20;
const HEARTBEAT_MS = 25_000;

/** Which changes a stream passes on: those of one ticket, or of a board's projects; `me` and `notifications` only count. */
type Interest = (event: ChangeEvent) => boolean;

async function interestIn(
  topic: string,
  deps: WebDeps,
  session: Session,
  requestId: string,
  log: Parameters<typeof readContext>[3],
): Promise<Interest | null> {
  if (topic === 'me') return () => false;
  if (topic === 'notifications') return null;
  const ctx = await readContext(deps, session, requestId, log);
  const ticket = /^ticket:(.+)$/.exec(topic);
  if (ticket) {
    // the stream says only "this changed"; the page's own fetch decides again what the member sees
    const { key } = await getTicket(ctx, ticket[1]!);
    return (event) => event.ticket?.key === key;
  }
  const board = /^board:([1-9]\d{0,8})$/.exec(topic);
  if (board) {
    const refusal = await moduleRefusal(deps, ctx.settings, session, 'boards');
    if (refusal) throw refusal;
    const projects = new Set((await getBoard(ctx, Number(board[1]))).projects);
    return (event) => event.ticket !== undefined && projects.has(event.ticket.projectKey);
  }
  throw new ApiError('invalid', `topic: must be me, notifications, ticket:<key> or board:<number>`);
}

function refuse(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('text/plain; charset=utf-8').send(message);
}

/**
 * GET /events?topic=…: the pages' live updates (ADR 0022), as server-sent events behind the
 * page log-in. A `change` event says the page's subject changed (no content: the page fetches
 * itself again, as the member), and only for a ticket the member may see at that moment; an
 * `unread` event carries the member's new unread count, of what they may see. Events come from
 * every node on the database (notifications/live-events.ts).
 */
export function eventRoutes(app: FastifyInstance, deps: PagesDeps): void {
  const open = new Map<string, number>();
  const check = batchedStreamChecks(deps.db);

  app.get('/events', { config: { stream: true } }, async (request, reply) => {
    const session = await currentSession(request, deps);
    if (!session) return refuse(reply, 401, 'Log in first.');
    const topic = String((request.query as { topic?: unknown }).topic ?? 'me');
    let interest: Interest | null;
    try {
      interest = await interestIn(topic, deps, session, request.id, request.log);
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        return refuse(reply, error.status === 422 ? 400 : error.code === 'feature_disabled' ? 403 : 404, error.message);
      }
      throw error;
    }
    // a node without a connection to LISTEN on: the page stops asking (an event stream answered 503 is not retried)
    if (deps.liveEvents.off) return refuse(reply, 503, 'Live updates are off on this node.');
    if ((open.get(session.memberId) ?? 0) >= STREAMS_PER_MEMBER)
      return refuse(reply, 429, `At most ${STREAMS_PER_MEMBER} pages may listen at once.`);
    open.set(session.memberId, (open.get(session.memberId) ?? 0) + 1);

    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
      'X-Request-Id': request.id,
    });
    let unread = session.unread;
    raw.write(`retry: 3000\nevent: unread\ndata: ${unread}\n\n`);

    let checking = Promise.resolve();
    const onEvent = (event: ChangeEvent) => {
      // one check at a time per stream, in order; the streams share one query per change
      checking = checking
        .then(async () => {
          if (raw.destroyed) return;
          const about = interest?.(event) ? { entityType: event.entityType, entityId: event.entityId } : null;
          const now = await check(session.memberId, about);
          if (now.unread !== unread) {
            unread = now.unread;
            raw.write(`event: unread\ndata: ${now.unread}\n\n`);
            if (interest === null) raw.write(`event: change\ndata: notifications\n\n`);
          }
          // told only of a ticket the member may see now; a board's change names no ticket at all
          if (about && now.visible) {
            const key = topic.startsWith('ticket:') ? (event.ticket?.key ?? null) : null;
            raw.write(`event: change\ndata: ${JSON.stringify({ kind: event.kind, key })}\n\n`);
          }
        })
        .catch((error: unknown) => request.log.warn({ err: error }, 'a live event could not be checked'));
    };
    const heartbeat = setInterval(() => raw.write(': still here\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      unsubscribe();
      const left = (open.get(session.memberId) ?? 1) - 1;
      if (left > 0) open.set(session.memberId, left);
      else open.delete(session.memberId);
      raw.end();
    };
    const unsubscribe = deps.liveEvents.subscribe(onEvent, end);
    raw.on('close', end);
    try {
      await deps.liveEvents.ready();
    } catch {
      // the browser opens the stream again after `retry`, which tries to listen again
      end();
      return;
    }
    // from here no committed change is missed: the page may rely on it (and its tests do)
    if (!raw.destroyed) raw.write('event: ready\ndata: listening\n\n');
  });
}
