import http from 'node:http';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSwitch, type SwitchableModule } from '../../src/core/settings.ts';
import { MailWorker, type MailTransport } from '../../src/notifications/mail-worker.ts';
import { fireDueReminders } from '../../src/notifications/reminders.ts';
import type { Reply, TestService } from '../helpers/service.ts';
import { Browser, startListeningService } from '../oauth/support.ts';
import { startSmtpServer } from './smtp.ts';

// A module switched off takes its records out of every channel that carries a record to a person:
// nothing of them is delivered or shown while it is off, and what was already written is shown
// again when it is back on. A reminder that comes due while its module is off is used up. As a
// table: every channel × every module that can be switched off, each cell either a case or the
// reason the channel cannot carry that module's records. A deal is a ticket: the CRM's switch
// takes away its CRM side only.

const MODULES = ['CRM', 'time tracking', 'helpdesk', 'knowledge base', 'boards'] as const;
type Module = (typeof MODULES)[number];
const SWITCHED: readonly SwitchableModule[] = ['crm', 'time', 'helpdesk', 'knowledge', 'boards'];

const CHANNELS = [
  'the notifications page',
  'the unread count',
  'email',
  'reminders',
  'live events',
  'the page of what my agents did',
] as const;
type Channel = (typeof CHANNELS)[number];

type Cell = { check: () => void } | { notCarried: string };

/** Unique words in each record: hidden while its module is off, shown again when it is on. */
const MARK = {
  remindOn: 'REMINDWHILEON',
  remindOff: 'REMINDWHILEOFF',
  dealOff: 'DEALCOMMENTOFF',
  contact: 'Contactmark',
  time: 'TIMEMARK',
  form: 'FORMMARK',
  dealCompany: 'Initech',
} as const;

const WORKSPACE = `
workspace:
  name: Module switches
  rest_api: true
  mcp: true
  default_priority: Medium
  priorities: [High, Medium, Low]

members:
  - { name: Ada Admin, email: ada@example.com, username: ada, admin: true }
  - { name: Vera Viewer, email: vera@example.com, username: vera, password: vera-password }

roles:
  - name: Agent
    permissions:
      [project:view, ticket:create, ticket:edit, ticket:assign, ticket:transition, ticket:comment, helpdesk:forms]
  - name: CRM editor
    permissions: [crm:view, crm:edit]

workflows:
  - name: Simple
    statuses:
      - { name: Open, category: todo }
      - { name: Done, category: done }
    transitions:
      - { name: Finish, from: any, to: Done }

projects:
  - key: HELP
    name: Help desk
    kind: helpdesk
    workflow: Simple
    ticket_types: [Question]
    roles:
      - { role: Agent, members: [vera@example.com] }
  - key: SALES
    name: Sales
    kind: sales
    workflow: Simple
    ticket_types: [Deal]
    roles:
      - { role: Agent, members: [vera@example.com] }
    tickets:
      - { number: 1, summary: Fifty seats, reporter: ada@example.com }
  - key: OPS
    name: Operations
    kind: software
    workflow: Simple
    ticket_types: [Task]
    tickets:
      - { number: 1, summary: Rotate keys, reporter: ada@example.com }

crm:
  roles:
    - { role: CRM editor, members: [vera@example.com] }
  companies:
    - { name: Acme GmbH }
    - { name: ${MARK.dealCompany} }
`;

/** What Vera was shown at one moment. */
interface Seen {
  page: string;
  count: number;
  unreadRows: number;
  activity: string;
}

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let service: TestService;
let transport: MailTransport;
const tokens = {} as Record<'ada' | 'vera', string>;
let vera: Browser;
/** Vera's pages with every module on, while they are off, and once they are back on. */
let on: Seen;
let off: Seen;
let back: Seen;
/** The unread counts Vera's open page was told while the modules were off. */
let pushedWhileOff: number[] = [];
let mailedTo: string;

const api = (who: 'ada' | 'vera', method: string, path: string, body?: unknown) =>
  service.request(method, `/api/v1${path}`, { token: tokens[who], body });

async function must(reply: Promise<Reply>, status: number): Promise<Reply> {
  const answer = await reply;
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${answer.text}`);
  return answer;
}

async function seenByVera(): Promise<Seen> {
  const page = (await vera.get('/notifications')).text;
  const count = /id="unread-count" class="count"(?: hidden)?>(\d+)</.exec(page);
  const activity = (await vera.get('/agents/activity')).text;
  return { page, count: Number(count?.[1]), unreadRows: (page.match(/<tr class="unread"/g) ?? []).length, activity };
}

function listenToMe(cookie: string): { ready: Promise<void>; unread(): number[]; close(): void } {
  const chunks: string[] = [];
  let request!: http.ClientRequest;
  const ready = new Promise<void>((resolve, reject) => {
    request = http.get(new URL('/events?topic=me', service.url), { headers: { cookie }, agent: false }, (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        chunks.push(chunk);
        if (chunks.join('').includes('event: ready')) resolve();
      });
    });
    request.on('error', reject);
  });
  return {
    ready,
    unread: () => [...chunks.join('').matchAll(/event: unread\ndata: (\d+)/g)].map((m) => Number(m[1])),
    close: () => request.destroy(),
  };
}

async function until(done: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 15_000) throw new Error(`waited in vain for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const switchAll = async (wanted: boolean) => {
  for (const module of SWITCHED) await setSwitch(service.db, module, wanted);
};
/** A change Vera is not told of: every open page hears of it and is told its member's count. */
const nudge = (summary: string) => must(api('ada', 'PATCH', '/tickets/OPS-1', { summary }), 200);
const sendMail = () =>
  new MailWorker({
    db: service.db,
    transport,
    from: 'Atrium <atrium@example.com>',
    publicUrl: service.publicUrl,
    log: service.app.log,
    now: () => new Date(),
  }).runOnce();

let stream: ReturnType<typeof listenToMe>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  transport = nodemailer.createTransport(smtp.url) as MailTransport;
  const mail = { smtpUrl: smtp.url, from: 'Atrium <atrium@example.com>' };
  service = await startListeningService({ workspace: WORKSPACE, mail });
  for (const who of ['ada', 'vera'] as const) {
    tokens[who] = await service.token(`${who}@example.com`, 'write', `${who}'s agent`);
  }
  vera = new Browser(service);
  expect((await vera.logIn('vera@example.com', 'vera-password')).status).toBe(303);
  stream = listenToMe(vera.cookieHeader());
  await stream.ready;

  // what Vera's agent did, in each module
  await must(api('vera', 'POST', '/contacts', { name: `Vick ${MARK.contact}`, company: 'Acme GmbH' }), 201);
  const worked = { start: '2026-03-02T09:00:00Z', duration: '1h' };
  const activity = await must(api('vera', 'POST', '/activities', worked), 201);
  await must(api('vera', 'PATCH', `/activities/${activity.body.id}`, { description: `Worked on ${MARK.time}` }), 200);
  const form = { key: MARK.form.toLowerCase(), name: `Form ${MARK.form}`, ticket_type: 'Question' };
  await must(api('vera', 'POST', '/projects/HELP/request-types', form), 201);
  await must(api('vera', 'PATCH', '/tickets/SALES-1', { company: MARK.dealCompany }), 200);

  // two follow-ups for Vera: one comes due while the CRM is on, one while it is off
  const task = (subject: string, due: string) => {
    const body = { kind: 'task', subject, assignee: 'Vera Viewer', due_at: due, company: 'Acme GmbH' };
    return must(api('ada', 'POST', '/interactions', body), 201);
  };
  await task(`${MARK.remindOn} call Acme`, '2026-06-01T09:00:00Z');
  await task(`${MARK.remindOff} visit Acme`, '2026-07-01T09:00:00Z');
  await fireDueReminders(service.db, new Date('2026-06-02T00:00:00Z'), true);
  on = await seenByVera();
  // a reminder tells an open page nothing: the next change anyone makes tells it the count, the reminder's
  await nudge('Rotate keys now');
  await until(() => stream.unread().at(-1) === 1, "Vera's open page to count the reminder");
  const heard = stream.unread().length;

  // every module off: the queued email goes out (or not), the second follow-up comes due, a change
  // tells the open page its count without the reminder, and a deal's comment mentions Vera
  await switchAll(false);
  await sendMail();
  await fireDueReminders(service.db, new Date('2026-07-02T00:00:00Z'), true);
  await nudge('Rotate keys today');
  await until(() => stream.unread().at(-1) === 0, "Vera's open page to leave the reminder out");
  await must(api('ada', 'POST', '/tickets/SALES-1/comments', { body: `@vera ${MARK.dealOff}: the discount` }), 201);
  await until(() => stream.unread().at(-1) === 1, "Vera's open page to count the deal's comment");
  pushedWhileOff = stream.unread().slice(heard);
  await sendMail();
  off = await seenByVera();

  // back on: nothing more fires or goes out for what came due or was queued while off
  await switchAll(true);
  await fireDueReminders(service.db, new Date('2026-07-03T00:00:00Z'), true);
  await sendMail();
  back = await seenByVera();
  mailedTo = smtp.received
    .filter((m) => m.to === 'vera@example.com')
    .map((m) => `${m.subject}\n${m.text}`)
    .join('\n---\n');
}, 120_000);

afterAll(async () => {
  stream?.close();
  await service?.close();
  transport?.close?.();
  await smtp?.close();
});

/** `marker` is in the channel with the module on, out of it while off, and in it again when on. */
function hiddenWhileOff(channel: (s: Seen) => string, marker: string, also: (s: Seen) => void = () => {}): Cell {
  return {
    check: () => {
      expect(channel(on)).toContain(marker);
      expect(channel(off)).not.toContain(marker);
      expect(channel(back)).toContain(marker);
      also(off);
    },
  };
}

const page = (s: Seen) => s.page;
const activity = (s: Seen) => s.activity;

const ANNOUNCES_NOTHING = (what: string) => ({ notCarried: `${what} announces, reminds and pushes nothing` });
const NO_HISTORY = {
  notCarried: 'its changes keep versions or are the tickets’ own: the page lists none of its records',
};

const TABLE: Record<Channel, Record<Module, Cell>> = {
  'the notifications page': {
    CRM: hiddenWhileOff(page, MARK.remindOn),
    'time tracking': ANNOUNCES_NOTHING('time tracking'),
    helpdesk: ANNOUNCES_NOTHING('a request type'),
    'knowledge base': ANNOUNCES_NOTHING('a page'),
    boards: ANNOUNCES_NOTHING('a board (a card moved is its ticket changed)'),
  },
  'the unread count': {
    CRM: {
      check: () => {
        for (const seen of [on, off, back]) expect(seen.count).toBe(seen.unreadRows);
        // on: the reminder; off: the deal's comment alone; back: both
        expect([on.count, off.count, back.count]).toEqual([1, 1, 2]);
      },
    },
    'time tracking': ANNOUNCES_NOTHING('time tracking'),
    helpdesk: ANNOUNCES_NOTHING('a request type'),
    'knowledge base': ANNOUNCES_NOTHING('a page'),
    boards: ANNOUNCES_NOTHING('a board (a card moved is its ticket changed)'),
  },
  email: {
    CRM: {
      check: () => {
        // queued while the CRM was on, withheld when it was off as the mail went out, never sent later
        expect(mailedTo).not.toContain(MARK.remindOn);
        expect(mailedTo).toContain(MARK.dealOff);
      },
    },
    'time tracking': ANNOUNCES_NOTHING('time tracking'),
    helpdesk: ANNOUNCES_NOTHING('a request type'),
    'knowledge base': ANNOUNCES_NOTHING('a page'),
    boards: ANNOUNCES_NOTHING('a board (a card moved is its ticket changed)'),
  },
  reminders: {
    CRM: {
      check: () => {
        // due while the CRM was off: used up, not fired when it came back on
        for (const seen of [off, back]) expect(seen.page).not.toContain(MARK.remindOff);
        expect(mailedTo).not.toContain(MARK.remindOff);
        expect(back.page).toContain(MARK.remindOn);
      },
    },
    'time tracking': { notCarried: 'only a follow-up (the CRM’s) reminds' },
    helpdesk: { notCarried: 'only a follow-up (the CRM’s) reminds' },
    'knowledge base': { notCarried: 'only a follow-up (the CRM’s) reminds' },
    boards: { notCarried: 'only a follow-up (the CRM’s) reminds' },
  },
  'live events': {
    CRM: {
      check: () => {
        // the open page's count, told at each change while the CRM was off, left the unread reminder out
        expect(pushedWhileOff).toEqual([0, off.count]);
        expect(off.count).toBe(1);
      },
    },
    'time tracking': { notCarried: 'open pages listen to tickets, boards and their member’s count only' },
    helpdesk: { notCarried: 'open pages listen to tickets, boards and their member’s count only' },
    'knowledge base': { notCarried: 'open pages listen to tickets, boards and their member’s count only' },
    boards: { notCarried: 'a board’s page is not served while boards are off; its tickets are tickets' },
  },
  'the page of what my agents did': {
    CRM: hiddenWhileOff(activity, MARK.contact, (s) => expect(s.activity).not.toContain('contact created')),
    'time tracking': hiddenWhileOff(activity, MARK.time, (s) => expect(s.activity).not.toContain('activity updated')),
    helpdesk: hiddenWhileOff(activity, MARK.form, (s) => expect(s.activity).not.toContain('request_type.created')),
    'knowledge base': NO_HISTORY,
    boards: NO_HISTORY,
  },
};

describe('the module-switch table names every channel and every module that can be switched off', () => {
  it('has a case, or the reason the channel cannot carry the module’s records, in every cell', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...CHANNELS].sort());
    for (const row of Object.values(TABLE)) expect(Object.keys(row).sort()).toEqual([...MODULES].sort());
  });
});

for (const channel of CHANNELS) {
  describe(`${channel}: nothing of a switched-off module while it is off, all of it again when it is on`, () => {
    for (const module of MODULES) {
      const cell = TABLE[channel][module];
      if ('check' in cell) it(module, cell.check);
    }
  });
}

describe('a deal is a ticket: with the CRM off its comments reach who may see its project, its company nobody', () => {
  it('announces the comment on the deal, and names its company on the agents page only while the CRM is on', () => {
    expect(off.page).toContain(MARK.dealOff);
    expect(mailedTo).toContain(MARK.dealOff);
    expect(on.activity).toContain(MARK.dealCompany);
    expect(off.activity).toContain('SALES-1');
    expect(off.activity).not.toContain(MARK.dealCompany);
    expect(back.activity).toContain(MARK.dealCompany);
  });
});
