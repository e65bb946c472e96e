import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';

let service: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  service = await startTestService();
  for (const persona of ['ada', 'lee', 'dev1', 'dev2', 'vic', 'olga'])
    tokens[persona] = await service.token(`${persona}@example.com`, 'read', `${persona}'s agent`);
});

afterAll(async () => {
  await service?.close();
});

const get = (persona: string, path: string) => service.request('GET', `/api/v1${path}`, { token: tokens[persona] });
const uuid = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

describe('GET /me: the member, the agent and its access (spec 4.1, 5.3)', () => {
  it('names the member (without an email address) and the token with its access', async () => {
    const reply = await get('lee', '/me');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ user: { id: uuid, name: 'Lee Lead' }, agent: { name: "lee's agent", access: 'read' } });
    expect(reply.text).not.toContain('@example.com');
  });

  it('reports write access for a write token', async () => {
    const token = await service.token('dev1@example.com', 'write', 'Claude on laptop');
    const reply = await service.request('GET', '/api/v1/me', { token });
    expect(reply.body.agent).toEqual({ name: 'Claude on laptop', access: 'write' });
    expect(reply.body.user.name).toBe('Dev One');
  });

  it('answers the same member id whichever token is used', async () => {
    const again = await service.request('GET', '/api/v1/me', { token: await service.token('lee@example.com', 'write') });
    expect(again.body.user.id).toBe((await get('lee', '/me')).body.user.id);
  });
});

describe('GET /projects: only the projects the member can see (spec 4.1)', () => {
  it.each([
    ['olga', []],
    ['vic', ['CORE']],
    ['dev1', ['CORE']],
    ['dev2', ['CORE']],
    ['lee', ['CORE', 'HIDE']],
    ['ada', ['CORE', 'HIDE']],
  ])('%s sees %j', async (persona, keys) => {
    const reply = await get(persona, '/projects');
    expect(reply.status).toBe(200);
    expect(reply.body.projects.map((p: { key: string }) => p.key)).toEqual(keys);
  });

  it('gives each project its key, name, kind and description', async () => {
    const reply = await get('ada', '/projects');
    expect(reply.body).toEqual({
      projects: [
        { key: 'CORE', name: 'Core platform', kind: 'software', description: "The platform tests' project" },
        { key: 'HIDE', name: 'Hidden project', kind: 'business', description: null },
      ],
    });
  });
});

describe('GET /projects/{key}: ProjectDetail (spec 4.1)', () => {
  it('describes the project with the names its tickets use, archived ones left out', async () => {
    const reply = await get('vic', '/projects/CORE');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      key: 'CORE',
      name: 'Core platform',
      kind: 'software',
      description: "The platform tests' project",
      ticket_types: ['Task', 'Bug'],
      resolutions: ['Done', "Won't Do"],
      components: ['API'],
      versions: ['1.0'],
      labels: ['backend'],
    });
    expect(reply.body.priorities).toEqual(['High', 'Medium', 'Low']);
  });

  it('lists as assignable the members whose role grants ticket:transition, and administrators', async () => {
    const reply = await get('vic', '/projects/CORE');
    const names = reply.body.assignable_users.map((p: { name: string }) => p.name).sort();
    // Lee (Lead), Dev One and Dev Two (Developer, through the Developers group), Ada (administrator);
    // not Vic (Viewer), Olga (no role), Gone (deactivated) or the member without email (no role).
    expect(names).toEqual(['Ada Admin', 'Dev One', 'Dev Two', 'Lee Lead']);
    for (const person of reply.body.assignable_users) expect(Object.keys(person).sort()).toEqual(['id', 'name']);
  });

  it('has only the administrators and the lead as assignable in a project with no developers', async () => {
    const reply = await get('lee', '/projects/HIDE');
    expect(reply.body.assignable_users.map((p: { name: string }) => p.name).sort()).toEqual(['Ada Admin', 'Lee Lead']);
  });

  it.each(['core', 'Core', ' CORE ', 'cOrE'])('matches the key "%s" case-insensitively', async (key) => {
    const reply = await get('dev1', `/projects/${encodeURIComponent(key)}`);
    expect(reply.status).toBe(200);
    expect(reply.body.key).toBe('CORE');
  });

  it('answers 404 not_found for a project that does not exist', async () => {
    const reply = await get('ada', '/projects/NOPE');
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe('not_found');
  });

  it.each([
    ['vic', 'HIDE'],
    ['olga', 'CORE'],
    ['dev1', 'HIDE'],
  ])('answers %s 404 for %s, a project they cannot see, exactly like one that does not exist', async (persona, key) => {
    const hidden = await get(persona, `/projects/${key}`);
    const missing = await get(persona, '/projects/NOPE');
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('not_found');
    expect(hidden.body.error.message).toBe(missing.body.error.message.replace('NOPE', key));
  });
});

// A project's labels are held in memory under config_version (projects' cachedProjectLabels);
// a ticket that adds a label bumps it in the same statement.
describe('GET /projects/{key}: a label a ticket adds is listed at the next request (spec 4.2: new labels are added)', () => {
  it('lists a label added by creating a ticket, then one added by changing a ticket', async () => {
    const lee = await service.token('lee@example.com', 'write', 'labelling agent');
    const labels = async () => (await get('vic', '/projects/CORE')).body.labels as string[];
    expect(await labels()).toEqual(['backend']);

    const created = await service.request('POST', '/api/v1/tickets', {
      token: lee,
      body: { project: 'CORE', summary: 'Labelled', labels: ['backend', 'Fresh Label'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(await labels()).toEqual(['backend', 'fresh-label']);

    const changed = await service.request('PATCH', `/api/v1/tickets/${created.body.key}`, { token: lee, body: { labels: ['later'] } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await labels()).toEqual(['backend', 'fresh-label', 'later']);
  });
});
