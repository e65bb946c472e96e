import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { fromDatabase } from '../../core/database-errors.ts';
import { ApiError, errorBody, internalErrorMessage } from '../../core/errors.ts';
import { BODY_LIMIT, sizeText } from '../../core/request-size.ts';
import { describeValidationError } from '../../core/validation.ts';
import { logErrorCode } from '../request-log.ts';

/** Fastify's own failures (parsing, limits) in the spec's terms. */
function fromFastify(error: FastifyError, route: { bodyLimit?: number }): ApiError | null {
  if (error.validation) {
    return new ApiError('invalid', describeValidationError(error.validation as never));
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('invalid', '/: the body must be JSON sent with Content-Type: application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('invalid', '/: the body is empty; send a JSON object');
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      const limit = sizeText(route.bodyLimit ?? BODY_LIMIT);
      return new ApiError('payload_too_large', `The request body is larger than ${limit}`);
    }
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('invalid', '/: the body is not valid JSON');
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
    return new ApiError('invalid', '/: the body is not valid JSON');
  }
  return null;
}

/**
 * Decides once what a client sees: known errors go out as they are, anything else is logged with
 * its stack and answered as a bare 500 carrying the request id (never SQL or a stack).
 */
export function sendApiError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const route = request.routeOptions;
  const known = error instanceof ApiError ? error : (fromDatabase(error) ?? fromFastify(error as FastifyError, route));
  if (known) {
    logErrorCode(request, known.code);
    for (const [name, value] of Object.entries(known.headers)) reply.header(name, value);
    return reply.code(known.status).send(errorBody(known.code, known.message));
  }
  logErrorCode(request, 'internal');
  request.log.error({ err: error }, 'unexpected error');
  return reply.code(500).send(errorBody('internal', internalErrorMessage(request.id)));
}

/**
 * Node's own refusals before any request is parsed (Fastify's `clientErrorHandler`): the spec's
 * envelope, not Fastify's shape. A connection reset needs no answer.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, body] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          errorBody('headers_too_large', 'The request line or headers are larger than 16 KiB; send a shorter query string'),
        ]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', errorBody('invalid', '/: the request did not arrive in time')]
        : [400, 'Bad Request', errorBody('invalid', '/: the request is not valid HTTP')];
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

/**
 * Failures before routing (a path that is not valid percent-encoding): under /api they get the
 * API's envelope as a 422; elsewhere a plain 400.
 */
export function answerFrameworkError(error: FastifyError, url: string, reply: FastifyReply): void {
  if (!url.startsWith('/api/')) {
    reply.code(400).type('text/plain; charset=utf-8').send('Bad request');
    return;
  }
  const reason = error.code === 'FST_ERR_BAD_URL' ? 'bad percent-encoding' : 'a parameter is too long';
  reply.code(422).send(errorBody('invalid', `/: the request path is not valid (${reason})`));
}
