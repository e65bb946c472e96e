/**
 * The one catalogue of API error codes (spec 7). docs/errors.md is checked against it by a test,
 * and the OpenAPI document lists each operation's codes from here.
 */
export const errorCatalogue = {
  invalid_token: {
    status: 401,
    when: 'no token, or a token that is unknown, expired or revoked, or whose member can no longer use agents',
  },
  feature_disabled: { status: 403, when: 'the REST API, the MCP server or the module is switched off; the message says which' },
  forbidden: {
    status: 403,
    when: "the member's permissions or the token's access do not allow it; also a ticket hidden by a security level",
  },
  not_found: { status: 404, when: 'no such project, ticket, board and so on, or not one the member can see; also an unknown path' },
  method_not_allowed: { status: 405, when: 'the path exists but not with this HTTP method' },
  payload_too_large: { status: 413, when: 'the request body is larger than the service accepts (1 MiB)' },
  invalid: {
    status: 422,
    when: 'a field is missing or wrong, a name matches nothing, or the body is not JSON; the message names the field as `<json pointer>: <reason>`',
  },
  invalid_duration: { status: 422, when: 'a duration that is not one (for example zero minutes)' },
  not_assignable: {
    status: 422,
    when: "the assignee is not among the assignable people: the project's, or a follow-up's (who may see it)",
  },
  no_transition: { status: 422, when: "no transition the member may take leads to the column's statuses" },
  no_such_column: { status: 422, when: 'the board has no column of that name or index' },
  no_such_sprint: { status: 422, when: 'the board has no open sprint of that name or id' },
  transition_not_available: { status: 422, when: 'the transition is not one the member can take now; the message lists those they can' },
  status_not_in_workflow: { status: 422, when: "the ticket's status is not in the workflow of the type asked for" },
  ticket_type_not_allowed: { status: 422, when: 'the ticket type is not one the project uses' },
  parent_not_found: { status: 422, when: 'the parent ticket does not exist or is in another project' },
  git_space: { status: 422, when: 'a write to a page of a git-kept space' },
  cycle: { status: 422, when: 'a page moved under itself or a page below it' },
  sprint_active: { status: 409, when: 'the board already has an active sprint' },
  wrong_state: { status: 409, when: 'the sprint is not in a state that allows it' },
  stale: { status: 409, when: 'the page was saved since the `version` given' },
  rate_limited: {
    status: 429,
    when: 'more than 600 requests a minute with one token on one node; `Retry-After: 60` says when to come back',
  },
  internal: { status: 500, when: 'an unexpected failure; the message carries a request id to quote, never the cause' },
  unavailable: {
    status: 503,
    when: 'the database cannot be reached right now (a restart or failover); nothing was changed; `Retry-After` says when to try again',
  },
  headers_too_large: {
    status: 431,
    when: 'the request line or headers are larger than the service accepts (16 KiB); a long query string is the usual cause',
  },
} as const satisfies Record<string, { status: number; when: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.headers = headers;
    this.name = 'ApiError';
    this.status = errorCatalogue[code].status;
  }
}

/** The one sentence an unexpected failure is answered with: never its cause, always an id to quote. */
export const internalErrorMessage = (requestId: string) =>
  `Something went wrong on our side; quote request id ${requestId} when reporting it`;

export const notFound = (what: string) => new ApiError('not_found', `${what} not found`);
export const forbidden = (message: string) => new ApiError('forbidden', message);
/** A 422 `invalid` whose message is `<json pointer>: <reason>` (spec 4). */
export const invalid = (pointer: string, reason: string) => new ApiError('invalid', `${pointer}: ${reason}`);

export interface ErrorBody {
  error: { code: string; message: string };
}

export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}
