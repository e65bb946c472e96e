import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersonalToken, revokeToken } from '../../src/auth/personal-tokens.ts';
import { setSwitch } from '../../src/core/settings.ts';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { statusChanges } from '../tickets/status-history.ts';

const DAY = 24 * 60 * 60 * 1000;
const METADATA = 'https://atrium.example.com/.well-known/oauth-protected-resource';
const CHALLENGE = `Bearer realm="atrium", resource_metadata="${METADATA}"`;
const INVALID_CHALLENGE = `Bearer realm="atrium", error="invalid_token", resource_metadata="${METADATA}"`;

/** The workspace file the service starts from, applied again changed (and back) by the tests of a change to it. */
const FILE = fs.readFileSync(new URL('../fixtures/workspace.yaml', import.meta.url), 'utf8');
const apply = (text: string) => applyWorkspace(service.db, parseWorkspaceYaml(text, 'workspace.yaml'));

let service: TestService;
/** The service's clock runs this far ahead of the real one; tests move it past an expiry. */
let clockAhead = 0;

beforeAll(async () => {
  service = await startTestService({ publicUrl: 'https://atrium.example.com', now: () => new Date(Date.now() + clockAhead) });
});

afterAll(async () => {
  await service?.close();
});

async function memberId(name: string): Promise<string> {
  const row = await service.db.selectFrom('members').select('id').where('display_name', '=', name).executeTakeFirstOrThrow();
  return row.id;
}

async function mint(name: string, lifetimeDays: 30 | 90 | 365 | null = null) {
  return createPersonalToken(service.db, { memberId: await memberId(name), name: 'agent', access: 'write', lifetimeDays });
}

/** A ticket in CORE made through the API with `token`; its key. */
async function createTicket(token: string, summary: string): Promise<string> {
  const created = await service.request('POST', '/api/v1/tickets', { token, body: { project: 'CORE', summary } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.key as string;
}

function expectRefused(reply: Awaited<ReturnType<TestService['request']>>, challenge: string) {
  expect(reply.status).toBe(401);
  expect(reply.body).toEqual({ error: { code: 'invalid_token', message: expect.any(String) } });
  expect(reply.headers['www-authenticate']).toBe(challenge);
}

describe('personal tokens: svc_pat_ followed by 32 random bytes in base64url (spec 5.1, 5.4)', () => {
  it('begins svc_pat_ and carries 43 base64url characters', async () => {
    const secret = await service.token('dev1@example.com');
    expect(secret).toMatch(/^svc_pat_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(8), 'base64url')).toHaveLength(32);
  });

  it('is different every time', async () => {
    const secrets = await Promise.all([1, 2, 3].map(() => service.token('dev1@example.com')));
    expect(new Set(secrets).size).toBe(3);
  });
});

describe('personal tokens: only a SHA-256 hash is kept (spec 5.1)', () => {
  it('stores the hash of the secret and never the secret or any part of it', async () => {
    const secret = await service.token('dev2@example.com', 'read', 'hash check');
    const rows = await service.db.selectFrom('tokens').selectAll().where('name', '=', 'hash check').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    const stored = JSON.stringify(await service.db.selectFrom('tokens').selectAll().execute());
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(8));
    expect(stored).not.toContain(secret.slice(8, 24));
  });

  it('keeps name, access, expiry, last use and revocation', async () => {
    const { id, secret } = await mint('Dev One', 90);
    const before = await service.db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(before).toMatchObject({ name: 'agent', access: 'write', kind: 'personal', last_used_at: null, revoked_at: null });
    const expires = new Date(before.expires_at!).getTime() - new Date(before.created_at).getTime();
    expect(Math.round(expires / DAY)).toBe(90);
    expect((await service.request('GET', '/api/v1/me', { token: secret })).status).toBe(200);
    const after = await service.db.selectFrom('tokens').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(after.last_used_at).not.toBeNull();
  });
});

describe('personal tokens: only the Authorization: Bearer header carries a token (spec 5)', () => {
  let secret: string;
  beforeAll(async () => {
    secret = await service.token('vic@example.com', 'read');
  });

  it('works in the Authorization header, whatever the case of "Bearer"', async () => {
    expect((await service.request('GET', '/api/v1/me', { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
    expect((await service.request('GET', '/api/v1/me', { headers: { authorization: `bearer ${secret}` } })).status).toBe(200);
  });

  it('is refused in the query string', async () => {
    expectRefused(await service.request('GET', `/api/v1/me?access_token=${secret}`), CHALLENGE);
  });

  it('is refused in a cookie', async () => {
    expectRefused(
      await service.request('GET', '/api/v1/me', { headers: { cookie: `access_token=${secret}; token=${secret}` } }),
      CHALLENGE,
    );
  });

  it('is refused through basic auth', async () => {
    const basic = Buffer.from(`vic@example.com:${secret}`).toString('base64');
    expectRefused(await service.request('GET', '/api/v1/me', { headers: { authorization: `Basic ${basic}` } }), INVALID_CHALLENGE);
  });

  it('is refused in a form or JSON body', async () => {
    const reply = await service.request('GET', '/api/v1/projects', { body: { access_token: secret } });
    expectRefused(reply, CHALLENGE);
  });
});

describe('personal tokens: 401 invalid_token when a token stops working (spec 5.5)', () => {
  it('refuses a request with no token, naming the protected-resource metadata', async () => {
    expectRefused(await service.request('GET', '/api/v1/projects'), CHALLENGE);
  });

  it('refuses an unknown token', async () => {
    expectRefused(await service.request('GET', '/api/v1/me', { token: `svc_pat_${'A'.repeat(43)}` }), INVALID_CHALLENGE);
    expectRefused(await service.request('GET', '/api/v1/me', { token: 'not-a-token' }), INVALID_CHALLENGE);
  });

  it('refuses a revoked token at once', async () => {
    const { id, secret } = await mint('Lee Lead');
    expect((await service.request('GET', '/api/v1/me', { token: secret })).status).toBe(200);
    expect(await revokeToken(service.db, await memberId('Lee Lead'), id)).toBe(true);
    expectRefused(await service.request('GET', '/api/v1/me', { token: secret }), INVALID_CHALLENGE);
  });

  it('refuses an expired token', async () => {
    const { secret } = await mint('Dev Two', 30);
    clockAhead = 29 * DAY;
    try {
      expect((await service.request('GET', '/api/v1/me', { token: secret })).status).toBe(200);
      clockAhead = 31 * DAY;
      expectRefused(await service.request('GET', '/api/v1/me', { token: secret }), INVALID_CHALLENGE);
    } finally {
      clockAhead = 0;
    }
  });

  it('never expires a token made without a lifetime', async () => {
    const { secret } = await mint('Dev Two', null);
    clockAhead = 3650 * DAY;
    try {
      expect((await service.request('GET', '/api/v1/me', { token: secret })).status).toBe(200);
    } finally {
      clockAhead = 0;
    }
  });

  it('refuses the token of a deactivated member', async () => {
    const { secret } = await mint('Gone Member');
    expectRefused(await service.request('GET', '/api/v1/me', { token: secret }), INVALID_CHALLENGE);
  });

  it('refuses the token of a member without an email address', async () => {
    const { secret } = await mint('No Email');
    expectRefused(await service.request('GET', '/api/v1/me', { token: secret }), INVALID_CHALLENGE);
  });

  it('answers a 401 on every operation of the registry, before anything else', async () => {
    for (const path of ['/api/v1/me', '/api/v1/projects', '/api/v1/projects/CORE', '/api/v1/projects/NOPE']) {
      expectRefused(await service.request('GET', path), CHALLENGE);
    }
  });
});

describe('personal tokens: a token in use sees what a switch or the workspace file changed at its very next request', () => {
  // The process keeps a token's member, settings and grants while config_version stays, and
  // checks the token itself on every request (auth/bearer.ts).

  it('is refused by a switch turned off, and let in once it is on again', async () => {
    const { secret } = await mint('Lee Lead');
    expect((await service.request('GET', '/api/v1/me', { token: secret })).status).toBe(200);
    await setSwitch(service.db, 'rest_api', false);
    try {
      const refused = await service.request('GET', '/api/v1/me', { token: secret });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('feature_disabled');
    } finally {
      await setSwitch(service.db, 'rest_api', true);
    }
    expect((await service.request('GET', '/api/v1/me', { token: secret })).status).toBe(200);
  });

  it('answers with the name the file gives its member, and refuses it once the file deactivates them', async () => {
    const { secret } = await mint('Lee Lead');
    const name = async () => (await service.request('GET', '/api/v1/me', { token: secret })).body.user.name;
    expect(await name()).toBe('Lee Lead');
    const lee = '- { name: Lee Lead, email: lee@example.com,';
    expect(FILE).toContain(lee);
    await apply(FILE.replace(lee, '- { name: Lee Leader, email: lee@example.com,'));
    expect(await name()).toBe('Lee Leader');
    await apply(FILE);
    expect(await name()).toBe('Lee Lead');
    try {
      await apply(FILE.replace(lee, `${lee} active: false,`));
      expectRefused(await service.request('GET', '/api/v1/me', { token: secret }), INVALID_CHALLENGE);
    } finally {
      await apply(FILE.replace(lee, `${lee} active: true,`));
    }
  });
});

describe('personal tokens: a read that carries its token check in its own statement still refuses at once (spec 5.5)', () => {
  // GET /tickets/{key} reads the token's check in the ticket's statement (auth/bearer.ts,
  // DeferredTokenCheck); nothing is answered before the check, and a stale principal reads again.
  const VIEWER = '      - { role: Viewer, members: [vic@example.com] }\n';
  let key: string;

  beforeAll(async () => {
    const lee = await service.token('lee@example.com', 'write', 'ticket maker');
    const created = await service.request('POST', '/api/v1/tickets', {
      token: lee,
      body: { project: 'CORE', summary: 'Read with its check' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    key = created.body.key;
  });

  const read = (secret: string, path = `/api/v1/tickets/${key}`) => service.request('GET', path, { token: secret });

  // A refusal forgets the held principal, so each path gets a token of its own, held, then revoked.
  for (const [what, path, status] of [
    ['a ticket (the check rides in its statement)', () => `/api/v1/tickets/${key}`, 200],
    ['a filtered list (the check rides in its page)', () => '/api/v1/tickets?project=CORE&sort=updated', 200],
    ['a search by words (the check rides in a page planned for its words)', () => '/api/v1/tickets?query=read', 200],
    ['a missing ticket (no row to carry the check)', () => '/api/v1/tickets/CORE-99999', 404],
    ['a query refused before the read ran', () => '/api/v1/tickets?limit=many', 422],
  ] as const) {
    it(`refuses a token revoked after its principal was held: ${what}`, async () => {
      const { id, secret } = await mint('Lee Lead');
      expect((await read(secret, path())).status).toBe(status);
      expect((await read(secret, path())).status).toBe(status);
      expect(await revokeToken(service.db, await memberId('Lee Lead'), id)).toBe(true);
      expectRefused(await read(secret, path()), INVALID_CHALLENGE);
    });
  }

  for (const [what, path] of [
    ['a ticket', () => `/api/v1/tickets/${key}`],
    ['a search by words', () => '/api/v1/tickets?query=read'],
  ] as const) {
    it(`refuses an expired token on ${what}`, async () => {
      const { secret } = await mint('Lee Lead', 30);
      expect((await read(secret, path())).status).toBe(200);
      clockAhead = 31 * DAY;
      try {
        expectRefused(await read(secret, path()), INVALID_CHALLENGE);
      } finally {
        clockAhead = 0;
      }
    });
  }

  it('hides the ticket at the next read once the file takes the role away, and shows it once it gives it back', async () => {
    expect(FILE).toContain(VIEWER);
    const vic = await service.token('vic@example.com', 'read', 'viewer reading a ticket');
    expect((await read(vic)).status).toBe(200);
    expect((await read(vic)).status).toBe(200);
    try {
      await apply(FILE.replace(VIEWER, ''));
      expect((await read(vic)).status).toBe(404);
    } finally {
      await apply(FILE);
    }
    const shown = await read(vic);
    expect(shown.status).toBe(200);
    expect(shown.body.key).toBe(key);
  });

  it('refuses the token once the file deactivates its member', async () => {
    const { secret } = await mint('Lee Lead');
    const lee = '- { name: Lee Lead, email: lee@example.com,';
    expect((await read(secret)).status).toBe(200);
    try {
      await apply(FILE.replace(lee, `${lee} active: false,`));
      expectRefused(await read(secret), INVALID_CHALLENGE);
    } finally {
      await apply(FILE.replace(lee, `${lee} active: true,`));
    }
  });

  it('is refused by the REST switch turned off while its principal was held', async () => {
    const { secret } = await mint('Lee Lead');
    expect((await read(secret)).status).toBe(200);
    await setSwitch(service.db, 'rest_api', false);
    try {
      const refused = await read(secret);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('feature_disabled');
    } finally {
      await setSwitch(service.db, 'rest_api', true);
    }
  });
});

describe('personal tokens: a comment whose first read carries its token check writes nothing until the check passes (spec 5.5)', () => {
  // POST /tickets/{key}/comments reads the ticket with the token's check in its statement, and
  // sends its write only once the check has passed (auth/bearer.ts, DeferredTokenCheck's gate).
  let key: string;
  let ada: string;

  beforeAll(async () => {
    ada = await service.token('ada@example.com', 'read', 'comment counter');
    const lee = await service.token('lee@example.com', 'write', 'ticket maker');
    const created = await service.request('POST', '/api/v1/tickets', {
      token: lee,
      body: { project: 'CORE', summary: 'Commented with its check' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    key = created.body.key;
  });

  const comment = (secret: string, body: string, ticket = key) =>
    service.request('POST', `/api/v1/tickets/${ticket}/comments`, { token: secret, body: { body } });
  const bodies = async (): Promise<string[]> => {
    const reply = await service.request('GET', `/api/v1/tickets/${key}`, { token: ada });
    expect(reply.status).toBe(200);
    return reply.body.comments.map((c: { body: { text: string } }) => c.body.text);
  };

  it('writes the comment of a token whose principal is held and current, once', async () => {
    const { secret } = await mint('Lee Lead');
    expect((await comment(secret, 'held, first')).status).toBe(201);
    expect((await comment(secret, 'held, second')).status).toBe(201);
    expect((await bodies()).filter((b) => b.startsWith('held,'))).toEqual(['held, first', 'held, second']);
  });

  it('refuses a token revoked after its principal was held, and writes nothing', async () => {
    const { id, secret } = await mint('Lee Lead');
    expect((await comment(secret, 'before the revoke')).status).toBe(201);
    expect(await revokeToken(service.db, await memberId('Lee Lead'), id)).toBe(true);
    expectRefused(await comment(secret, 'after the revoke'), INVALID_CHALLENGE);
    expect(await bodies()).not.toContain('after the revoke');
  });

  it('refuses a revoked token on a missing ticket with 401, not 404', async () => {
    const { id, secret } = await mint('Lee Lead');
    expect((await comment(secret, 'held')).status).toBe(201);
    expect(await revokeToken(service.db, await memberId('Lee Lead'), id)).toBe(true);
    expectRefused(await comment(secret, 'nowhere', 'CORE-99999'), INVALID_CHALLENGE);
  });

  it("refuses a revoked token whose comment is refused before its read ran with 401, not the body's error", async () => {
    const { id, secret } = await mint('Lee Lead');
    expect((await comment(secret, 'held')).status).toBe(201);
    expect((await comment(secret, '')).status).toBe(422);
    expect(await revokeToken(service.db, await memberId('Lee Lead'), id)).toBe(true);
    expectRefused(await comment(secret, ''), INVALID_CHALLENGE);
  });

  it('refuses an expired token, and writes nothing', async () => {
    const { secret } = await mint('Lee Lead', 30);
    expect((await comment(secret, 'before the expiry')).status).toBe(201);
    clockAhead = 31 * DAY;
    try {
      expectRefused(await comment(secret, 'after the expiry'), INVALID_CHALLENGE);
    } finally {
      clockAhead = 0;
    }
    expect(await bodies()).not.toContain('after the expiry');
  });

  it('refuses the token once the file deactivates its member, and writes nothing', async () => {
    const { secret } = await mint('Lee Lead');
    const lee = '- { name: Lee Lead, email: lee@example.com,';
    expect((await comment(secret, 'while active')).status).toBe(201);
    try {
      await apply(FILE.replace(lee, `${lee} active: false,`));
      expectRefused(await comment(secret, 'while deactivated'), INVALID_CHALLENGE);
    } finally {
      await apply(FILE.replace(lee, `${lee} active: true,`));
    }
    expect(await bodies()).not.toContain('while deactivated');
  });

  it('hides the ticket once the file takes the member out of the group that gave the role, and writes nothing', async () => {
    const dev = await service.token('dev1@example.com', 'write', 'developer commenting');
    expect((await comment(dev, 'from a developer')).status).toBe(201);
    try {
      await apply(FILE.replace('members: [dev1@example.com, Dev Two]', 'members: [Dev Two]'));
      const refused = await comment(dev, 'from a former developer');
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe('not_found');
    } finally {
      await apply(FILE);
    }
    expect(await bodies()).not.toContain('from a former developer');
  });

  it('writes once, for the principal as it is now, when the file changed it since it was held', async () => {
    const { secret } = await mint('Lee Lead');
    const viewer = await service.token('vic@example.com', 'write', 'viewer commenting');
    expect((await comment(secret, 'as Lee Lead')).status).toBe(201);
    const refused = await comment(viewer, 'from a viewer');
    expect(refused.status).toBe(403);
    try {
      await apply(
        FILE.replace('- { name: Lee Lead,', '- { name: Lee Renamed,').replace(
          'permissions: [project:view]',
          'permissions: [project:view, ticket:comment]',
        ),
      );
      const renamed = await comment(secret, 'as Lee Renamed');
      expect(renamed.status).toBe(201);
      expect(renamed.body.author.name).toBe('Lee Renamed');
      expect((await comment(viewer, 'from a viewer who may comment')).status).toBe(201);
    } finally {
      await apply(FILE);
    }
    const written = await bodies();
    expect(written.filter((b) => b === 'as Lee Renamed')).toHaveLength(1);
    expect(written.filter((b) => b === 'from a viewer who may comment')).toHaveLength(1);
    expect(written).not.toContain('from a viewer');
  });
});

describe('personal tokens: a transition whose first read carries its token check changes nothing until the check passes (spec 5.5)', () => {
  // POST /tickets/{key}/transitions reads the ticket with the token's check in its statement, as a
  // comment does, and writes only once the check has passed.
  let lee: string;

  beforeAll(async () => {
    lee = await service.token('lee@example.com', 'write', 'ticket maker');
  });

  const newTicket = () => createTicket(lee, 'Moved with its check');
  const move = (secret: string, key: string, transition: string) =>
    service.request('POST', `/api/v1/tickets/${key}/transitions`, { token: secret, body: { transition } });
  const statusOf = async (key: string) => (await service.request('GET', `/api/v1/tickets/${key}`, { token: lee })).body.status.name;

  it('refuses a token revoked after its principal was held, and changes nothing', async () => {
    const key = await newTicket();
    const { id, secret } = await mint('Lee Lead');
    expect((await move(secret, key, 'Start')).status).toBe(200);
    expect(await revokeToken(service.db, await memberId('Lee Lead'), id)).toBe(true);
    expectRefused(await move(secret, key, 'Finish'), INVALID_CHALLENGE);
    expect(await statusOf(key)).toBe('In Progress');
    expect(await statusChanges(service.db, key)).toEqual([{ from: 'To Do', to: 'In Progress' }]);
  });

  it('refuses the token once the file deactivates its member, and changes nothing', async () => {
    const key = await newTicket();
    const { secret } = await mint('Lee Lead');
    const leeLine = '- { name: Lee Lead, email: lee@example.com,';
    expect((await move(secret, key, 'Start')).status).toBe(200);
    try {
      await apply(FILE.replace(leeLine, `${leeLine} active: false,`));
      expectRefused(await move(secret, key, 'Finish'), INVALID_CHALLENGE);
    } finally {
      await apply(FILE.replace(leeLine, `${leeLine} active: true,`));
    }
    expect(await statusOf(key)).toBe('In Progress');
  });

  it('writes once, for the principal as it is now, when the file changed it since it was held', async () => {
    const key = await newTicket();
    const { secret } = await mint('Lee Lead');
    expect((await move(secret, key, 'Start')).status).toBe(200);
    try {
      await apply(FILE.replace('- { name: Lee Lead,', '- { name: Lee Renamed,'));
      expect((await move(secret, key, 'Finish')).status).toBe(200);
    } finally {
      await apply(FILE);
    }
    expect(await statusChanges(service.db, key)).toEqual(expect.arrayContaining([{ from: 'In Progress', to: 'Done' }]));
    expect(await statusChanges(service.db, key)).toHaveLength(2);
  });
});

describe('personal tokens: a worklog whose first read carries its token check writes nothing until the check passes (spec 5.5)', () => {
  // POST /tickets/{key}/worklogs reads the ticket with the token's check in its statement, as a
  // transition does, and writes only once the check has passed.
  let lee: string;

  beforeAll(async () => {
    lee = await service.token('lee@example.com', 'write', 'ticket maker');
  });

  const newTicket = () => createTicket(lee, 'Worked on with its check');
  const logWork = (secret: string, key: string, minutes: number) =>
    service.request('POST', `/api/v1/tickets/${key}/worklogs`, { token: secret, body: { time_spent_seconds: minutes * 60 } });
  const worklogsOf = async (key: string) => {
    const ticket = (await service.request('GET', `/api/v1/tickets/${key}`, { token: lee })).body;
    return { spent: ticket.time_spent_seconds, by: ticket.worklogs.map((w: { author: { name: string } }) => w.author.name) };
  };

  it('refuses a token revoked after its principal was held, and writes nothing', async () => {
    const key = await newTicket();
    const { id, secret } = await mint('Lee Lead');
    expect((await logWork(secret, key, 5)).status).toBe(201);
    expect(await revokeToken(service.db, await memberId('Lee Lead'), id)).toBe(true);
    expectRefused(await logWork(secret, key, 7), INVALID_CHALLENGE);
    expect(await worklogsOf(key)).toEqual({ spent: 300, by: ['Lee Lead'] });
  });

  it('refuses the token once the file deactivates its member, and writes nothing', async () => {
    const key = await newTicket();
    const { secret } = await mint('Lee Lead');
    const leeLine = '- { name: Lee Lead, email: lee@example.com,';
    expect((await logWork(secret, key, 5)).status).toBe(201);
    try {
      await apply(FILE.replace(leeLine, `${leeLine} active: false,`));
      expectRefused(await logWork(secret, key, 7), INVALID_CHALLENGE);
    } finally {
      await apply(FILE.replace(leeLine, `${leeLine} active: true,`));
    }
    expect(await worklogsOf(key)).toEqual({ spent: 300, by: ['Lee Lead'] });
  });

  it('writes once, for the principal as it is now, when the file changed it since it was held', async () => {
    const key = await newTicket();
    const { secret } = await mint('Lee Lead');
    expect((await logWork(secret, key, 5)).status).toBe(201);
    try {
      await apply(FILE.replace('- { name: Lee Lead,', '- { name: Lee Renamed,'));
      const renamed = await logWork(secret, key, 7);
      expect(renamed.status, renamed.text).toBe(201);
      expect(renamed.body.author.name).toBe('Lee Renamed');
    } finally {
      await apply(FILE);
    }
    expect((await worklogsOf(key)).spent).toBe(720);
    expect((await worklogsOf(key)).by).toHaveLength(2);
  });
});

describe('personal tokens: the protected-resource metadata the challenge names (spec 5.2, RFC 9728)', () => {
  it('is served without a token and describes the REST API', async () => {
    const reply = await service.request('GET', '/.well-known/oauth-protected-resource');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      resource: 'https://atrium.example.com',
      authorization_servers: ['https://atrium.example.com'],
      scopes_supported: ['tickets:read', 'tickets:write'],
      bearer_methods_supported: ['header'],
      resource_name: expect.any(String),
      resource_documentation: expect.stringMatching(/^https:\/\/atrium\.example\.com\//),
    });
  });
});
