import http from 'node:http';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackground } from '../../src/notifications/background.ts';
import type { MailTransport } from '../../src/notifications/mail-worker.ts';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import type { TestService } from '../helpers/service.ts';
import { Browser, send, startListeningService } from '../oauth/support.ts';
import { startSmtpServer } from './smtp.ts';
import { visibilityWorkspace } from './visibility-workspace.ts';

// One visibility rule for everything that leaves the service: every channel that carries a
// record's content to a person asks, for the receiving member, what the reads ask — when it is
// written, fired, sent or pushed, and again when shown. As a table: every channel × every reason
// a member may not see, each cell either a case (nothing reaches the member who may not see, and
// the record does reach Vera, who may) or the reason the channel cannot carry that kind of record.

const REASONS = [
  'security level',
  'internal comment',
  'no project role',
  'CRM closed',
  'CRM limited to another company',
  'restricted space',
  'draft',
  'loses access later',
] as const;
type Reason = (typeof REASONS)[number];

const CHANNELS = [
  'the notifications page',
  'the unread count',
  'email',
  'reminders',
  'live events',
  'the page of what my agents did',
  'knowledge search passages',
  'backlinks',
  "a page's tickets",
] as const;
type Channel = (typeof CHANNELS)[number];

type Cell = { check: () => Promise<void> | void } | { notCarried: string };
type Member = 'vera' | 'lena' | 'olga' | 'carl' | 'finn' | 'wes';

/** Unique words in each record's content: what must not reach the member who may not see it. */
const MARK = {
  embargo: 'EMBARGOLEVEL',
  internal: 'INTERNALNOTE',
  noRole: 'NOROLEWORDS',
  deal: 'DEALCRMWORDS',
  remindLevel: 'REMINDLEVEL',
  remindNoRole: 'REMINDNOROLE',
  remindClosed: 'REMINDCLOSED',
  remindCompany: 'REMINDCOMPANY',
  remindControl: 'REMINDCONTROL',
  actLevel: 'ACTLEVEL',
  actNoRole: 'ACTNOROLE',
  actInternal: 'ACTINTERNAL',
  actClosed: 'Actclosed',
  actCompany: 'Actcompany',
  actControl: 'ACTCONTROL',
  actControlCrm: 'Actcontrolcrm',
  formNoRole: 'FORMNOROLE',
  formControl: 'FORMCONTROL',
  actSpace: 'ACTSPACE',
  actSpaceControl: 'ACTCTLSPACE',
} as const;

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let service: TestService;
const tokens = {} as Record<Member | 'ada', string>;
const browsers = {} as Record<Exclude<Member, 'wes'>, Browser>;

/** What each member was shown, read once everything was written, fired and sent. */
interface Seen {
  page: string;
  count: number;
  unreadRows: number;
  activity: string;
  mail: string;
}
const seen = {} as Record<Exclude<Member, 'wes'>, Seen>;
let finnBefore: Seen;
/** The answer to a follow-up assigned to Lena about SOFT-1, which she may not see. */
let unseenAssignee: { status: number; text: string };
let finnSearchBefore: string;

/** Live streams opened before the changes, as pages hold them. */
type StreamName = 'lenaMe' | 'olgaMe' | 'veraMe' | 'lenaBoard' | 'veraBoard' | 'veraHelp' | 'finnHelp';
const streams = {} as Record<StreamName, Stream>;
/** The answers to streams that may not be opened at all. */
const refusedStreams = {} as Record<'olgaTicket' | 'olgaBoard' | 'lenaTicket', number>;
/** Changes the board streams heard while only SOFT-1 changed; the HELP-1 streams before and after Finn lost access. */
const heard = {
  lenaBoard: -1,
  veraBoard: -1,
  finnHelpBefore: -1,
  finnHelpAfter: -1,
  veraHelpBefore: -1,
  veraHelpAfter: -1,
};

interface Stream {
  ready: Promise<void>;
  changes(): string[];
  unread(): number[];
  close(): void;
}

function listen(cookie: string, topic: string): Stream {
  const chunks: string[] = [];
  let request!: http.ClientRequest;
  const ready = new Promise<void>((resolve, reject) => {
    const url = new URL(`/events?topic=${topic}`, service.url);
    request = http.get(url, { headers: { cookie }, agent: false }, (response) => {
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
    changes: () => [...chunks.join('').matchAll(/event: change\ndata: (.*)/g)].map((m) => m[1]!),
    unread: () => [...chunks.join('').matchAll(/event: unread\ndata: (\d+)/g)].map((m) => Number(m[1])),
    close: () => request.destroy(),
  };
}

const api = (who: Member | 'ada', method: string, path: string, body?: unknown) =>
  service.request(method, `/api/v1${path}`, { token: tokens[who], body });

async function must(reply: Promise<{ status: number; text: string }>, status: number): Promise<void> {
  const answer = await reply;
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${answer.text}`);
}

/** When the follow-ups come due: long before the background looks. */
const DUE = '2026-06-01T09:00:00Z';

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/** Waits until `done` holds (streams hear changes a moment after the request that made them). */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 15_000) throw new Error(`waited in vain for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function seenBy(who: Exclude<Member, 'wes'>): Promise<Seen> {
  const page = (await browsers[who].get('/notifications')).text;
  const count = /id="unread-count" class="count"(?: hidden)?>(\d+)</.exec(page);
  const activity = (await browsers[who].get('/agents/activity')).text;
  const mail = smtp.received
    .filter((m) => m.to === `${who}@example.com`)
    .map((m) => `${m.subject}\n${m.text}`)
    .join('\n---\n');
  const unreadRows = (page.match(/<tr class="unread"/g) ?? []).length;
  return { page, count: Number(count?.[1]), unreadRows, activity, mail };
}

const apply = (later: boolean) => applyWorkspace(service.db, parseWorkspaceYaml(visibilityWorkspace(later), 'visibility workspace'));

beforeAll(async () => {
  smtp = await startSmtpServer();
  const mail = { smtpUrl: smtp.url, from: 'Atrium <atrium@example.com>' };
  service = await startListeningService({ workspace: visibilityWorkspace(false), mail });
  for (const who of ['ada', 'wes', 'vera', 'lena', 'olga', 'carl', 'finn'] as const) {
    tokens[who] = await service.token(`${who}@example.com`, 'write', `${who}'s agent`);
  }
  for (const who of ['vera', 'lena', 'olga', 'carl', 'finn'] as const) {
    browsers[who] = new Browser(service);
    expect((await browsers[who].logIn(`${who}@example.com`, `${who}-password`)).status).toBe(303);
  }

  // open pages, before anything changes
  const cookie = (who: keyof typeof browsers) => browsers[who].cookieHeader();
  streams.lenaMe = listen(cookie('lena'), 'me');
  streams.olgaMe = listen(cookie('olga'), 'me');
  streams.veraMe = listen(cookie('vera'), 'me');
  streams.lenaBoard = listen(cookie('lena'), 'board:1');
  streams.veraBoard = listen(cookie('vera'), 'board:1');
  streams.veraHelp = listen(cookie('vera'), 'ticket:HELP-1');
  streams.finnHelp = listen(cookie('finn'), 'ticket:HELP-1');
  await Promise.all(Object.values(streams).map((s) => s.ready));
  const opened = async (who: keyof typeof browsers, topic: string) =>
    (await send(service, 'GET', `/events?topic=${topic}`, { headers: { cookie: cookie(who) } })).status;
  refusedStreams.olgaTicket = await opened('olga', 'ticket:SOFT-2');
  refusedStreams.olgaBoard = await opened('olga', 'board:1');
  refusedStreams.lenaTicket = await opened('lena', 'ticket:SOFT-1');

  // SOFT-1 is behind the Embargo level: Lena watches it (she reported it) and is mentioned
  const comment = (key: string, body: string, internal = false) =>
    must(api('ada', 'POST', `/tickets/${key}/comments`, { body, internal }), 201);
  await comment('SOFT-1', `@lena @vera @finn ${MARK.embargo}: the launch moves to May`);
  await until(() => streams.veraBoard.changes().length > 0, "Vera's board to change");
  await settle();
  heard.lenaBoard = streams.lenaBoard.changes().length;
  heard.veraBoard = streams.veraBoard.changes().length;

  // an internal note on a helpdesk ticket, mentioning Olga, who has no role in HELP
  await comment('HELP-1', `@olga @vera @finn ${MARK.internal}: the customer is furious`, true);
  await comment('SOFT-2', `@olga @vera ${MARK.noRole}: the roadmap detail`);
  // a deal, for Olga: the CRM is closed to her and she has no role in the sales project
  await comment('SALES-1', `@olga @vera ${MARK.deal}: the discount for Acme`);

  // follow-ups, due long before the background runs
  const assign = (subject: string, assignee: string, about: Record<string, string>) =>
    api('ada', 'POST', '/interactions', { kind: 'task', subject, assignee, due_at: DUE, ...about });
  const task = (subject: string, assignee: string, about: Record<string, string>) => must(assign(subject, assignee, about), 201);
  const launch = { company: 'Acme GmbH', ticket: 'SOFT-1' };
  unseenAssignee = await assign(`${MARK.remindLevel} call about the launch`, 'Lena Level', launch);
  const globex = 'Globex Corporation';
  await task(`${MARK.remindNoRole} call about the printer`, 'Carl Company', { company: globex, ticket: 'HELP-1' });
  await task(`${MARK.remindClosed} call Acme`, 'Finn Fading', { company: 'Acme GmbH' });
  await task(`${MARK.remindCompany} visit Acme`, 'Carl Company', { company: 'Acme GmbH' });
  await task(`${MARK.remindControl} call about the launch`, 'Vera Viewer', { company: 'Acme GmbH', ticket: 'SOFT-1' });

  // what the members' agents did, while they could see it
  await must(api('finn', 'PATCH', '/tickets/SOFT-1', { summary: `Embargoed launch ${MARK.actLevel}` }), 200);
  await must(api('finn', 'PATCH', '/tickets/HELP-1', { summary: `Printer on fire ${MARK.actNoRole}` }), 200);
  await must(api('finn', 'POST', '/tickets/HELP-1/comments', { body: MARK.actInternal, internal: true }), 201);
  await must(api('finn', 'POST', '/contacts', { name: `Fiona ${MARK.actClosed}`, company: 'Acme GmbH' }), 201);
  await must(api('carl', 'POST', '/contacts', { name: `Carla ${MARK.actCompany}`, company: 'Acme GmbH' }), 201);
  await must(api('vera', 'PATCH', '/tickets/SOFT-2', { summary: `Plain ticket ${MARK.actControl}` }), 200);
  await must(api('vera', 'POST', '/contacts', { name: `Vick ${MARK.actControlCrm}`, company: 'Acme GmbH' }), 201);
  const form = (key: string) => ({ key: key.toLowerCase(), name: `Form ${key}`, ticket_type: 'Question' });
  await must(api('finn', 'POST', '/projects/HELP/request-types', form(MARK.formNoRole)), 201);
  await must(api('vera', 'POST', '/projects/HELP/request-types', form(MARK.formControl)), 201);
  const secretPage = (title: string) => ({ title, body: 'Written by an agent.' });
  await must(api('finn', 'POST', '/knowledge/spaces/SECRET/pages', secretPage(`Walrus ${MARK.actSpace}`)), 201);
  await must(api('vera', 'POST', '/knowledge/spaces/SECRET/pages', secretPage(`Walrus ${MARK.actSpaceControl}`)), 201);

  await until(() => streams.finnHelp.changes().length >= 2, "Finn's HELP-1 page to change twice");
  await settle();
  heard.finnHelpBefore = streams.finnHelp.changes().length;
  heard.veraHelpBefore = streams.veraHelp.changes().length;
  finnBefore = await seenBy('finn');
  finnSearchBefore = (await api('finn', 'GET', '/knowledge/search?query=zeppelin')).text;

  // Finn and Carl lose access through the workspace file
  await apply(true);

  await must(api('ada', 'POST', '/tickets/HELP-1/comments', { body: '@vera after the change' }), 201);
  await until(() => streams.veraHelp.changes().length > heard.veraHelpBefore, "Vera's HELP-1 page to change again");
  await settle();
  heard.finnHelpAfter = streams.finnHelp.changes().length;
  heard.veraHelpAfter = streams.veraHelp.changes().length;

  // reminders come due and every queued email goes out
  const transport = nodemailer.createTransport(smtp.url) as MailTransport;
  const background = startBackground({
    database: service.database,
    mail: { smtpUrl: smtp.url, from: 'Atrium <atrium@example.com>' },
    publicUrl: service.publicUrl,
    log: service.app.log,
    now: () => new Date('2030-01-01T00:00:00Z'),
    reminderSeconds: 3600,
    mailSeconds: 3600,
    transport,
  });
  await background.runOnce();
  await background.stop();
  await settle();

  for (const who of ['vera', 'lena', 'olga', 'carl', 'finn'] as const) seen[who] = await seenBy(who);
}, 120_000);

afterAll(async () => {
  for (const stream of Object.values(streams)) stream?.close();
  await service?.close();
  await smtp?.close();
});

/** Nothing of `marker` reaches `who` through the text channel; Vera's, with `shown` in it, reaches her. */
function textCell(channel: (s: Seen) => string, who: Exclude<Member, 'wes'>, marker: string, shown = marker): Cell {
  return {
    check: () => {
      expect(channel(seen[who])).not.toContain(marker);
      expect(channel(seen.vera)).toContain(shown);
    },
  };
}

/** The count holds only what the page shows (which lacks `marker`); Vera's, with `shown` among it, counts it. */
function countCell(who: Exclude<Member, 'wes'>, marker: string, shown = marker): Cell {
  return {
    check: () => {
      expect(seen[who].page).not.toContain(marker);
      expect(seen[who].count).toBe(seen[who].unreadRows);
      expect(seen.vera.page).toContain(shown);
      expect(seen.vera.count).toBe(seen.vera.unreadRows);
      expect(seen.vera.count).toBeGreaterThan(0);
    },
  };
}

/** A knowledge read as `who`: `marker` absent; as `control`: present. */
function knowledgeCell(path: string, who: Member, marker: string, control: Member = 'vera'): Cell {
  return {
    check: async () => {
      const [denied, allowed] = [await api(who, 'GET', path), await api(control, 'GET', path)];
      expect(denied.status).toBe(200);
      expect(denied.text).not.toContain(marker);
      expect(allowed.status).toBe(200);
      expect(allowed.text).toContain(marker);
    },
  };
}

const page = (s: Seen) => s.page;
const mail = (s: Seen) => s.mail;

const NO_PAGE_NOTICE = 'no change of a page is announced, reminded or pushed: pages keep versions, not notifications';
const TICKETS_ONLY = 'it carries pages only; a ticket, contact or interaction never appears in it';

const TABLE: Record<Channel, Record<Reason, Cell>> = {
  'the notifications page': {
    'security level': textCell(page, 'lena', MARK.embargo),
    'internal comment': textCell(page, 'olga', MARK.internal),
    'no project role': textCell(page, 'olga', MARK.noRole),
    'CRM closed': textCell(page, 'olga', MARK.deal),
    'CRM limited to another company': textCell(page, 'carl', MARK.remindCompany, MARK.remindControl),
    'restricted space': { notCarried: NO_PAGE_NOTICE },
    draft: { notCarried: NO_PAGE_NOTICE },
    'loses access later': {
      check: () => {
        for (const marker of [MARK.embargo, MARK.internal]) {
          expect(finnBefore.page).toContain(marker);
          expect(seen.finn.page).not.toContain(marker);
        }
      },
    },
  },
  'the unread count': {
    'security level': countCell('lena', MARK.embargo),
    'internal comment': countCell('olga', MARK.internal),
    'no project role': countCell('olga', MARK.noRole),
    'CRM closed': countCell('olga', MARK.deal),
    'CRM limited to another company': countCell('carl', MARK.remindCompany, MARK.remindControl),
    'restricted space': { notCarried: NO_PAGE_NOTICE },
    draft: { notCarried: NO_PAGE_NOTICE },
    'loses access later': {
      check: () => {
        expect(finnBefore.count).toBe(2);
        expect(seen.finn.count).toBe(0);
        // told at every change while the page is open, too: never a count of what they may not see
        expect(new Set(streams.lenaMe.unread())).toEqual(new Set([0]));
        expect(new Set(streams.olgaMe.unread())).toEqual(new Set([0]));
        expect(Math.max(...streams.veraMe.unread())).toBeGreaterThanOrEqual(4);
      },
    },
  },
  email: {
    'security level': textCell(mail, 'lena', MARK.embargo),
    'internal comment': textCell(mail, 'olga', MARK.internal),
    'no project role': textCell(mail, 'olga', MARK.noRole),
    'CRM closed': textCell(mail, 'olga', MARK.deal),
    'CRM limited to another company': textCell(mail, 'carl', MARK.remindCompany, MARK.remindControl),
    'restricted space': { notCarried: NO_PAGE_NOTICE },
    draft: { notCarried: NO_PAGE_NOTICE },
    'loses access later': {
      check: () => {
        // queued while Finn could see it, not sent once he could not
        expect(finnBefore.page).toContain(MARK.embargo);
        expect(seen.finn.mail).toBe('');
        expect(seen.vera.mail).toContain(MARK.embargo);
      },
    },
  },
  reminders: {
    'security level': {
      check: async () => {
        // a follow-up's assignee must see it: one about a ticket they may not see is refused
        expect(unseenAssignee.status).toBe(422);
        expect(JSON.parse(unseenAssignee.text).error).toMatchObject({
          code: 'not_assignable',
          message: expect.stringMatching(/^\/assignee: Lena Level may not see SOFT-1, which this follow-up is about; /),
        });
        expect(seen.lena.page + seen.lena.mail).not.toContain(MARK.remindLevel);
        expect(seen.vera.page + seen.vera.mail).toContain(MARK.remindControl);
        expect((await api('lena', 'GET', '/follow-ups')).text).not.toContain(MARK.remindLevel);
      },
    },
    'internal comment': { notCarried: 'a reminder carries its follow-up’s subject, never a comment' },
    'no project role': {
      check: () => {
        // set while Carl viewed HELP; his role there was gone (the CRM for Globex kept) when it came due
        expect(seen.carl.page + seen.carl.mail).not.toContain(MARK.remindNoRole);
        expect(seen.vera.page + seen.vera.mail).toContain(MARK.remindControl);
      },
    },
    'CRM closed': {
      check: () => {
        // an assignee must see the CRM when the follow-up is set; it was closed to Finn before it came due
        expect(seen.finn.page + seen.finn.mail).not.toContain(MARK.remindClosed);
        expect(seen.vera.page + seen.vera.mail).toContain(MARK.remindControl);
      },
    },
    'CRM limited to another company': {
      check: () => {
        // set while Carl edited the whole CRM; limited to Globex before it came due
        expect(seen.carl.page + seen.carl.mail).not.toContain(MARK.remindCompany);
        expect(seen.vera.page + seen.vera.mail).toContain(MARK.remindControl);
      },
    },
    'restricted space': { notCarried: 'follow-ups are about contacts, companies and tickets, never pages' },
    draft: { notCarried: 'follow-ups are about contacts, companies and tickets, never pages' },
    'loses access later': {
      check: () => {
        expect(finnBefore.page).not.toContain(MARK.remindClosed);
        expect(seen.finn.page + seen.finn.mail).not.toContain(MARK.remindClosed);
      },
    },
  },
  'live events': {
    'security level': {
      check: () => {
        // a page may not listen to a ticket its member may not see (every refusal is a 404 there)
        expect(refusedStreams.lenaTicket).toBe(404);
        // the board over SOFT, while only SOFT-1 changed
        expect(heard.lenaBoard).toBe(0);
        expect(heard.veraBoard).toBeGreaterThan(0);
      },
    },
    'internal comment': {
      check: () => {
        expect(new Set(streams.olgaMe.unread())).toEqual(new Set([0]));
        expect(heard.veraHelpBefore).toBeGreaterThan(0);
        expect(streams.veraHelp.changes().join('\n')).not.toContain(MARK.internal);
      },
    },
    'no project role': {
      check: () => {
        expect(refusedStreams.olgaTicket).toBe(404);
        expect(refusedStreams.olgaBoard).toBe(404);
      },
    },
    'CRM closed': { notCarried: 'open pages listen to tickets and boards only; a deal is a ticket (no project role)' },
    'CRM limited to another company': { notCarried: 'open pages listen to tickets and boards only, never to the CRM' },
    'restricted space': { notCarried: NO_PAGE_NOTICE },
    draft: { notCarried: NO_PAGE_NOTICE },
    'loses access later': {
      check: () => {
        expect(heard.finnHelpBefore).toBeGreaterThan(0);
        expect(heard.finnHelpAfter).toBe(heard.finnHelpBefore);
        expect(heard.veraHelpAfter).toBeGreaterThan(heard.veraHelpBefore);
      },
    },
  },
  'the page of what my agents did': {
    'security level': {
      check: () => {
        expect(finnBefore.activity).toContain(MARK.actLevel);
        expect(seen.finn.activity).not.toContain(MARK.actLevel);
        expect(seen.finn.activity).toContain('a ticket you cannot see now');
        expect(seen.vera.activity).toContain(MARK.actControl);
      },
    },
    'internal comment': {
      check: () => {
        // a comment is recorded by its id and visibility: its words are on the ticket only
        expect(finnBefore.activity).not.toContain(MARK.actInternal);
        expect(finnBefore.activity).toContain('a internal comment');
      },
    },
    'no project role': {
      check: () => {
        expect(finnBefore.activity).toContain(MARK.actNoRole);
        expect(seen.finn.activity).not.toContain(MARK.actNoRole);
        // a request type of a project Finn no longer views: the audit entry keeps its name to itself
        expect(finnBefore.activity).toContain(MARK.formNoRole);
        expect(seen.finn.activity).not.toContain(MARK.formNoRole);
        expect(seen.finn.activity).not.toContain(MARK.formNoRole.toLowerCase());
        const hidden = 'request type created <span class="muted">(one you cannot see now)</span>';
        expect(seen.finn.activity).toContain(hidden);
        expect(seen.vera.activity).toContain(MARK.formControl);
      },
    },
    'CRM closed': {
      check: () => {
        expect(finnBefore.activity).toContain(MARK.actClosed);
        expect(seen.finn.activity).not.toContain(MARK.actClosed);
        expect(seen.vera.activity).toContain(MARK.actControlCrm);
      },
    },
    'CRM limited to another company': {
      check: () => {
        expect(seen.carl.activity).not.toContain(MARK.actCompany);
        expect(seen.carl.activity).toContain('a contact you cannot see now');
        expect(seen.vera.activity).toContain(MARK.actControlCrm);
      },
    },
    'restricted space': {
      check: () => {
        // a page Finn's agent wrote in the secret space, which Finn may no longer read
        expect(finnBefore.activity).toContain(MARK.actSpace);
        expect(seen.finn.activity).not.toContain(MARK.actSpace);
        expect(seen.finn.activity).not.toContain(MARK.actSpace.toLowerCase());
        expect(seen.finn.activity).toContain('created <span class="muted">a page you cannot see now</span>');
        expect(seen.vera.activity).toContain(MARK.actSpaceControl);
      },
    },
    draft: { notCarried: "an agent's draft is its member's own, which the member may always read" },
    'loses access later': {
      check: () => {
        // every row above is one: what Finn's agents did while he could see it
        for (const marker of [MARK.actLevel, MARK.actNoRole, MARK.actClosed, MARK.formNoRole]) {
          expect(finnBefore.activity).toContain(marker);
          expect(seen.finn.activity).not.toContain(marker);
        }
      },
    },
  },
  'knowledge search passages': {
    'security level': { notCarried: TICKETS_ONLY },
    'internal comment': { notCarried: TICKETS_ONLY },
    'no project role': { notCarried: TICKETS_ONLY },
    'CRM closed': { notCarried: TICKETS_ONLY },
    'CRM limited to another company': { notCarried: TICKETS_ONLY },
    'restricted space': knowledgeCell('/knowledge/search?query=zeppelin', 'lena', 'zeppelin'),
    draft: knowledgeCell('/knowledge/search?query=quokka', 'vera', 'quokka', 'wes'),
    'loses access later': {
      check: async () => {
        expect(finnSearchBefore).toContain('zeppelin');
        expect((await api('finn', 'GET', '/knowledge/search?query=zeppelin')).text).not.toContain('zeppelin');
      },
    },
  },
  backlinks: {
    'security level': { notCarried: TICKETS_ONLY },
    'internal comment': { notCarried: TICKETS_ONLY },
    'no project role': { notCarried: TICKETS_ONLY },
    'CRM closed': { notCarried: TICKETS_ONLY },
    'CRM limited to another company': { notCarried: TICKETS_ONLY },
    'restricted space': knowledgeCell('/knowledge/spaces/OPEN/pages/target', 'lena', 'Zeppelin plan'),
    draft: knowledgeCell('/knowledge/spaces/OPEN/pages/target', 'vera', 'Quokka idea', 'wes'),
    'loses access later': {
      check: async () => {
        expect((await api('finn', 'GET', '/knowledge/spaces/OPEN/pages/target')).text).not.toContain('Zeppelin plan');
      },
    },
  },
  "a page's tickets": {
    'security level': knowledgeCell('/knowledge/spaces/OPEN/pages/target', 'lena', 'Embargoed launch'),
    'internal comment': { notCarried: 'a page lists the tickets it mentions by key and summary, never their comments' },
    'no project role': knowledgeCell('/knowledge/spaces/OPEN/pages/target', 'olga', 'Plain ticket'),
    'CRM closed': { notCarried: 'a page lists tickets, never a contact, company or interaction' },
    'CRM limited to another company': { notCarried: 'a page lists tickets, never a contact, company or interaction' },
    'restricted space': { notCarried: 'the list is of tickets; the page itself is the knowledge base’s read' },
    draft: { notCarried: 'the list is of tickets; the page itself is the knowledge base’s read' },
    'loses access later': {
      check: async () => {
        const target = (await api('finn', 'GET', '/knowledge/spaces/OPEN/pages/target')).text;
        expect(target).not.toContain('Embargoed launch');
        expect(target).toContain('Plain ticket');
      },
    },
  },
};

describe('the visibility table names every channel and every reason a member may not see', () => {
  it('has a case, or the reason the channel cannot carry the record, in every cell', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...CHANNELS].sort());
    for (const row of Object.values(TABLE)) {
      expect(Object.keys(row).sort()).toEqual([...REASONS].sort());
      for (const cell of Object.values(row)) {
        if ('notCarried' in cell) expect(cell.notCarried.length).toBeGreaterThan(10);
      }
    }
  });
});

for (const channel of CHANNELS) {
  describe(`${channel}: nothing of a record reaches a member who may not see it`, () => {
    for (const reason of REASONS) {
      const cell = TABLE[channel][reason];
      if ('check' in cell) it(reason, cell.check);
    }
  });
}

describe('a member who may see the record is told (the control: delivery works)', () => {
  it('shows Vera every mention and her reminder, counts them and emails them', () => {
    for (const marker of [MARK.embargo, MARK.internal, MARK.noRole, MARK.deal, MARK.remindControl]) {
      expect(seen.vera.page).toContain(marker);
      expect(seen.vera.mail).toContain(marker);
    }
    expect(seen.vera.count).toBeGreaterThanOrEqual(5);
  });
});
