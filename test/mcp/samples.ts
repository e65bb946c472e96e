/**
 * Sample arguments per tool, for the SDK-client and parity tests, run in this order against
 * test/fixtures/workspace.yaml as Lee Lead (lead of CORE), after `arrangeTicket` made CORE-1.
 * A tool with no entry is still called, with `{}`: it answers data or the error sentence REST
 * gives for the same empty input. Add entries as modules land.
 */
export interface Sample {
  args: Record<string, unknown>;
  /** Whether this input succeeds for Lee Lead; undefined: either way. */
  succeeds?: boolean;
}

export const SAMPLES: Record<string, Sample[]> = {
  whoami: [{ args: {}, succeeds: true }],
  list_projects: [{ args: {}, succeeds: true }],
  describe_project: [
    { args: { project: 'CORE' }, succeeds: true },
    { args: { project: 'core' }, succeeds: true },
    { args: { project: 'NOPE' }, succeeds: false },
    { args: {}, succeeds: false },
    { args: { project: 7 }, succeeds: false },
  ],
  // The platform fixture has no helpdesk project: these show the refusals agree (a software project has no forms).
  list_request_types: [
    { args: { project: 'CORE' }, succeeds: false },
    { args: { project: 'NOPE', include_archived: true }, succeeds: false },
  ],
  get_request_type: [{ args: { project: 'CORE', request_type: 'anything' }, succeeds: false }],
  create_request_type: [
    { args: { project: 'CORE', key: 'form', name: 'Form', ticket_type: 'Task' }, succeeds: false },
    { args: { project: 'CORE', key: 'has space', name: 'Form', ticket_type: 'Task' }, succeeds: false },
  ],
  reorder_request_types: [{ args: { project: 'CORE', order: [] }, succeeds: false }],
  retire_request_type: [{ args: { project: 'CORE', request_type: 'form' }, succeeds: false }],
  search_tickets: [
    { args: {}, succeeds: true },
    { args: { project: 'CORE', limit: 5 }, succeeds: true },
    { args: { query: 'arranged' }, succeeds: true },
    { args: { project: 'NOPE' }, succeeds: false },
    { args: { limit: 1000 }, succeeds: false },
  ],
  get_ticket: [
    { args: { key: 'CORE-1' }, succeeds: true },
    { args: { key: 'core-1' }, succeeds: true },
    { args: { key: 'CORE-999999' }, succeeds: false },
    { args: {}, succeeds: false },
  ],
  create_ticket: [
    { args: { project: 'CORE', summary: 'Made through a tool', type: 'bug', labels: ['backend'] }, succeeds: true },
    { args: { project: 'NOPE', summary: 'Nowhere' }, succeeds: false },
    { args: { project: 'CORE' }, succeeds: false },
    { args: { project: 'CORE', summary: 'Wrong type', type: 'Epic' }, succeeds: false },
    { args: { project: 'CORE', summary: 'Not a helpdesk', request_type: 'get-help' }, succeeds: false },
    { args: { project: 'CORE', summary: 5 }, succeeds: false },
  ],
  update_ticket: [
    { args: { key: 'CORE-1', summary: 'Arranged and renamed', priority: 'high' }, succeeds: true },
    { args: { key: 'CORE-1', priority: 'Urgent' }, succeeds: false },
    { args: { key: 'CORE-999999', summary: 'x' }, succeeds: false },
  ],
  add_comment: [
    { args: { key: 'CORE-1', body: 'A comment from an agent' }, succeeds: true },
    { args: { key: 'CORE-1' }, succeeds: false },
  ],
  log_work: [
    { args: { key: 'CORE-1', time_spent: '1h 30m' }, succeeds: true },
    { args: { key: 'CORE-1', time_spent: 'soon' }, succeeds: false },
  ],
  assign_ticket: [
    { args: { key: 'CORE-1', assignee: 'me' }, succeeds: true },
    { args: { key: 'CORE-1', assignee: 'Olga Outsider' }, succeeds: false },
  ],
  transition_ticket: [
    { args: { key: 'CORE-1', transition: 'No such transition' }, succeeds: false },
    { args: { key: 'CORE-1' }, succeeds: false },
  ],
  // The platform fixture has no boards: these show the not-found and validation sentences agree.
  list_boards: [{ args: {}, succeeds: true }],
  get_board: [
    { args: { board: 1 }, succeeds: false },
    { args: { board: 'first' }, succeeds: false },
  ],
  get_backlog: [{ args: { board: 1 }, succeeds: false }],
  list_sprints: [{ args: { board: 1 }, succeeds: false }],
  create_sprint: [{ args: { board: 1, name: 'Sprint 1' }, succeeds: false }],
  move_card: [{ args: { board: 1, key: 'CORE-1', column: 'Done' }, succeeds: false }],
};

export const samplesFor = (tool: string): Sample[] => SAMPLES[tool] ?? [{ args: {} }];

/** Creates CORE-1 through REST when the tickets module has landed, so ticket samples have one. */
export async function arrangeTicket(
  request: (method: string, path: string, options: { token: string; body: unknown }) => Promise<{ status: number; body: any }>,
  token: string,
  hasTickets: boolean,
): Promise<void> {
  if (!hasTickets) return;
  const reply = await request('POST', '/api/v1/tickets', { token, body: { project: 'CORE', summary: 'Arranged ticket' } });
  if (reply.status !== 201 || reply.body.key !== 'CORE-1')
    throw new Error(`arranging CORE-1 failed: ${reply.status} ${JSON.stringify(reply.body)}`);
}
