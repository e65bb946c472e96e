import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { backlog, board, columnKeys, createTicket, transition } from './support.ts';

const DAY = 86_400_000;
const realNow = Date.now();
// The service's clock, moved by the tests (startTestService's `now`).
let clock = new Date(realNow);

const seeds = Array.from({ length: 501 }, (_, i) => `      - { number: ${i + 1}, summary: Item ${i + 1} }`).join('\n');

const WORKSPACE = `
workspace: { name: Retention, rest_api: true, mcp: true }
members:
  - { name: Ada Admin, email: ada@example.com, admin: true }
workflows:
  - name: Flow
    statuses:
      - { name: To Do, category: todo }
      - { name: Done, category: done }
    transitions:
      - { name: Close, from: any, to: Done }
      - { name: Reopen, from: [Done], to: To Do }
  - name: Born done
    statuses:
      - { name: Archived, category: done }
      - { name: Active, category: todo }
    transitions:
      - { name: Revive, from: [Archived], to: Active }
projects:
  - { key: RET, name: Retained, kind: business, workflow: Flow, ticket_types: [Task], resolutions: [{ name: Fixed, default: true }] }
  - { key: OLD, name: Old, kind: business, workflow: Born done, ticket_types: [Task] }
  - key: LOTS
    name: Lots
    kind: business
    workflow: Flow
    ticket_types: [Task]
    tickets:
${seeds}
boards:
  - number: 1
    name: Retaining
    kind: kanban
    projects: [RET, OLD]
    done_retention_days: 14
    columns:
      - { name: Open, statuses: [To Do, Active] }
      - { name: Done, statuses: [Done, Archived] }
  - number: 2
    name: Lots kanban
    kind: kanban
    projects: [LOTS]
    columns:
      - { name: Open, statuses: [To Do] }
  - number: 3
    name: Lots scrum
    kind: scrum
    projects: [LOTS]
    columns:
      - { name: Open, statuses: [To Do] }
`;

let service: TestService;
let ada: string;
let resolvedLater: string;
let neverChanged: string;

const at = (days: number) => {
  clock = new Date(realNow + days * DAY);
};

beforeAll(async () => {
  service = await startTestService({ workspace: WORKSPACE, now: () => clock });
  ada = await service.token('ada@example.com');
  resolvedLater = await createTicket(service, ada, 'RET', 'Resolved twenty days on');
  neverChanged = await createTicket(service, ada, 'OLD', 'Done from the start');
  at(20);
  await transition(service, ada, resolvedLater, { transition: 'Close' });
}, 300_000); // 501 seed tickets take a while on PGlite when the machine is busy
afterAll(() => service.close());

describe('done retention: done tickets done longer than done_retention_days are left off and counted', () => {
  it('counts from the resolution, not from creation', async () => {
    at(30); // created 30 days ago, resolved 10 days ago
    const detail = await board(service, ada, 1);
    expect(columnKeys(detail).Done).toEqual([resolvedLater]);
    expect(detail.hidden_done).toBe(1); // the one never changed since creation, 30 days ago
    expect(detail.done_retention_days).toBe(14);
  });

  it('keeps a ticket done exactly as long as the retention, and leaves it off once longer', async () => {
    at(34); // resolved 14 days ago
    expect(columnKeys(await board(service, ada, 1)).Done).toEqual([resolvedLater]);
    at(34.01);
    const detail = await board(service, ada, 1);
    expect(columnKeys(detail).Done).toEqual([]);
    expect(detail.hidden_done).toBe(2);
  });

  it('counts a ticket never resolved from its last status change (here, its creation)', async () => {
    at(13);
    const detail = await board(service, ada, 1);
    expect(columnKeys(detail).Done).toContain(neverChanged);
    at(15);
    expect(columnKeys(await board(service, ada, 1)).Done).not.toContain(neverChanged);
  });

  it('brings a reopened ticket back, whatever its age', async () => {
    at(60);
    await transition(service, ada, resolvedLater, { transition: 'Reopen' });
    const detail = await board(service, ada, 1);
    expect(columnKeys(detail).Open).toEqual([resolvedLater]);
    expect(detail.hidden_done).toBe(1);
  });
});

describe('limits: at most 500 tickets per board view and per backlog', () => {
  it('shows the first 500 in rank order on the board', async () => {
    const detail = await board(service, ada, 2);
    const keys = columnKeys(detail).Open!;
    expect(keys).toHaveLength(500);
    expect(keys[0]).toBe('LOTS-1');
    expect(keys[499]).toBe('LOTS-500');
  });

  it('shows the first 500 in rank order in the backlog', async () => {
    const view = await backlog(service, ada, 3);
    expect(view.backlog).toHaveLength(500);
    expect(view.backlog[499]!.key).toBe('LOTS-500');
  });
});
