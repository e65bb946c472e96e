import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { decodeEntities, type Browser } from '../oauth/support.ts';
import { api, EXTRAS_WORKSPACE, linksOf, memberBrowser, postForm, tokenFor } from './extras-support.ts';

// Links between tickets are made and removed in the browser (link_tickets, unlink_tickets: the
// web door only). The member needs ticket:edit on the ticket (spec 5.6, as PATCH) and must see the
// other ticket; a ticket is not linked to itself, nor the same way twice. Both tickets read the
// link, each its own way round, and both histories record it. The REST API is the witness.

/** A second project only Olga works in: its tickets are ones the CORE members cannot see. */
const WORKSPACE = `${EXTRAS_WORKSPACE}  - key: SEC
    name: Secret
    kind: software
    workflow: Simple
    ticket_types: [Task]
    roles:
      - { role: Lead, members: [olga@example.com] }
`;

let service: TestService;
let lee: string;
let dev: string;
let olga: string;
let witness: string;
const browsers: Record<string, Browser> = {};

beforeAll(async () => {
  service = await startTestService({ workspace: WORKSPACE });
  lee = await service.token('lee@example.com', 'write', 'Lee agent');
  dev = await service.token('dev@example.com', 'write', 'Dev agent');
  olga = await service.token('olga@example.com', 'write', 'Olga agent');
  witness = await service.token('ada@example.com', 'read', 'Witness');
  for (const who of ['lee', 'dev', 'vic', 'olga']) browsers[who] = await memberBrowser(service, who);
});
afterAll(async () => service?.close());

async function ticket(token = lee, project = 'CORE'): Promise<string> {
  const created = await api(service, token, 'POST', '/tickets', { project, summary: `Linked ${Math.random()}` });
  expect(created.status).toBe(201);
  return created.json.key as string;
}

/** The ticket's links as another member reads them through GET /tickets/{key}: relation and key. */
const links = (key: string) => linksOf(service, witness, key);

/** The Add link form of the ticket page, sent by the member without script. */
const link = (who: string, key: string, relation: string, other: string) =>
  postForm(browsers[who]!, `/browse/${key}`, `/browse/${key}/links`, { relation, ticket: other });

/** The form's token for a member the page shows no form: the operation itself must refuse. */
const linkWithoutForm = (who: string, key: string, relation: string, other: string) =>
  browsers[who]!.post(`/browse/${key}/links`, { csrf: tokenFor(browsers[who]!, `/browse/${key}/links`), relation, ticket: other });

describe('a link is made from one ticket and read from both, each its own way round', () => {
  it('reads "is blocked by" on the ticket and "blocks" on the other, and records it in both histories', async () => {
    const [a, b] = [await ticket(), await ticket()];
    const made = await link('lee', a, 'is blocked by', b.toLowerCase());
    expect(made.status).toBe(303);
    expect(made.location).toBe(`/browse/${a}#links-section`);
    expect(await links(a)).toEqual([`is blocked by ${b}`]);
    expect(await links(b)).toEqual([`blocks ${a}`]);
    const history = async (key: string) => decodeEntities((await browsers.vic!.get(`/browse/${key}`)).text);
    expect(await history(a)).toMatch(/Lee Lead<\/a><\/strong> linked the ticket[\s\S]*Link: <strong>is blocked by [A-Z]+-\d+<\/strong>/);
    expect(await history(b)).toContain(`Link: <strong>blocks ${a}</strong>`);
  });

  it('removes it from either ticket, and both histories say so', async () => {
    const [a, b] = [await ticket(), await ticket()];
    expect((await link('lee', a, 'duplicates', b)).status).toBe(303);
    const removed = await postForm(browsers.lee!, `/browse/${b}`, `/browse/${b}/links/remove`);
    expect(removed.status).toBe(303);
    expect(await links(a)).toEqual([]);
    expect(await links(b)).toEqual([]);
    expect(decodeEntities((await browsers.lee!.get(`/browse/${a}`)).text)).toContain(`Link: duplicates ${b} → <strong>none</strong>`);
  });
});

describe('linking needs ticket:edit on the ticket, as PATCH does (spec 5.6)', () => {
  it('refuses Vic, who may only view, with 403 and shows him no form', async () => {
    const [a, b] = [await ticket(), await ticket()];
    expect((await browsers.vic!.get(`/browse/${a}`)).text).not.toContain(`action="/browse/${a}/links"`);
    const refused = await linkWithoutForm('vic', a, 'blocks', b);
    expect(refused.status).toBe(403);
    expect(decodeEntities(refused.text)).toContain('needs ticket:edit');
    expect(await links(a)).toEqual([]);
  });

  it('lets Dev, who holds ticket:edit_own, link a ticket he reported and no other', async () => {
    const [mine, leads] = [await ticket(dev), await ticket()];
    expect((await link('dev', mine, 'relates to', leads)).status).toBe(303);
    expect(await links(leads)).toEqual([`relates to ${mine}`]);
    const refused = await linkWithoutForm('dev', leads, 'blocks', mine);
    expect(refused.status).toBe(403);
    expect(await links(leads)).toEqual([`relates to ${mine}`]);
  });

  it('refuses the removal of a link to a member who may not edit', async () => {
    const [a, b] = [await ticket(), await ticket()];
    expect((await link('lee', a, 'clones', b)).status).toBe(303);
    const action = `/browse/${a}/links/remove`;
    const refused = await browsers.vic!.post(action, { csrf: tokenFor(browsers.vic!, action), relation: 'clones', ticket: b });
    expect(refused.status).toBe(403);
    expect(await links(a)).toEqual([`clones ${b}`]);
  });
});

describe('the other ticket is one the member can see', () => {
  it('answers 404 for a ticket of a project Lee cannot see, as GET /tickets/{key} does, and links nothing', async () => {
    const [a, hidden] = [await ticket(), await ticket(olga, 'SEC')];
    expect((await api(service, lee, 'GET', `/tickets/${hidden}`)).status).toBe(404);
    const refused = await link('lee', a, 'blocks', hidden);
    expect(refused.status).toBe(404);
    expect(decodeEntities(refused.text)).toContain(`Ticket ${hidden} not found`);
    // said at the form's top, with what was typed kept
    expect(refused.text).toContain(`value="${hidden}"`);
    expect(await links(a)).toEqual([]);
    expect(await links(hidden)).toEqual([]);
  });

  it('answers 404 to a member who cannot see the ticket itself', async () => {
    const [a, b] = [await ticket(), await ticket()];
    expect((await linkWithoutForm('olga', a, 'blocks', b)).status).toBe(404);
    expect(await links(a)).toEqual([]);
  });
});

describe('a ticket is not linked to itself', () => {
  it('refuses with 422 at the ticket field, keeping what was typed', async () => {
    const a = await ticket();
    const refused = await link('lee', a, 'relates to', a);
    expect(refused.status).toBe(422);
    expect(decodeEntities(refused.text)).toContain(`${a} cannot be linked to itself`);
    expect(refused.text).toMatch(new RegExp(`id="field-ticket" name="ticket" value="${a}"[^>]*aria-invalid="true"`));
    expect(await links(a)).toEqual([]);
  });
});

describe('the same link is not made twice', () => {
  it('refuses the same relation again with 422, from either end, and keeps one link', async () => {
    const [a, b] = [await ticket(), await ticket()];
    expect((await link('lee', a, 'blocks', b)).status).toBe(303);
    const again = await link('lee', a, 'blocks', b);
    expect(again.status).toBe(422);
    expect(decodeEntities(again.text)).toContain(`${a} already blocks ${b}`);
    // the same link read from the other ticket
    expect((await link('lee', b, 'is blocked by', a)).status).toBe(422);
    expect(await links(a)).toEqual([`blocks ${b}`]);
  });

  it('takes "relates to" as the same link either way round, and another relation as another link', async () => {
    const [a, b] = [await ticket(), await ticket()];
    expect((await link('lee', a, 'relates to', b)).status).toBe(303);
    expect((await link('lee', b, 'relates to', a)).status).toBe(422);
    expect((await link('lee', b, 'blocks', a)).status).toBe(303);
    expect(await links(a)).toEqual([`relates to ${b}`, `is blocked by ${b}`]);
  });
});
