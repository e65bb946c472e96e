import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import {
  exchange,
  loggedIn,
  me,
  obtainCode,
  refreshWith,
  registerClient,
  send,
  workspaceWithDevTwo,
  type Browser,
  type RegisteredTestClient,
} from './support.ts';

const W = 'https://acme.example.test';
let service: TestService;
let browser: Browser;
let PUB: RegisteredTestClient;
let EVIL: RegisteredTestClient;
let CONF: RegisteredTestClient;
let offset = 0;

beforeAll(async () => {
  service = await startTestService({ publicUrl: W, workspace: workspaceWithDevTwo(), now: () => new Date(Date.now() + offset) });
  PUB = await registerClient(service, { client_name: 'Public agent' });
  EVIL = await registerClient(service, { client_name: 'Evil agent' });
  CONF = await registerClient(service, {
    client_name: 'Server app',
    redirect_uris: ['https://app.example.org/cb'],
    token_endpoint_auth_method: 'client_secret_post',
  });
  browser = await loggedIn(service);
});
afterAll(async () => service?.close());

interface Pair {
  access_token: string;
  refresh_token: string;
  scope: string;
}

async function connect(options: Parameters<typeof obtainCode>[1] = {}): Promise<Pair> {
  const flow = await obtainCode(service, { client: PUB, browser, ...options });
  const extra: Record<string, string> = flow.client.client_secret ? { client_secret: flow.client.client_secret } : {};
  const response = await exchange(service, flow, extra);
  expect(response.status).toBe(200);
  return response.json as Pair;
}

const works = async (token: string) => (await me(service, token)).status === 200;

describe('RT-1: refreshing rotates the pair and the old one stops at once', () => {
  it('gives a new pair; the old access token is refused immediately', async () => {
    const first = await connect();
    const second = await refreshWith(service, PUB, first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.headers['cache-control']).toBe('no-store');
    expect(second.json.access_token).not.toBe(first.access_token);
    expect(second.json.refresh_token).not.toBe(first.refresh_token);
    expect(await works(first.access_token)).toBe(false);
    expect(await works(second.json.access_token)).toBe(true);
  });
});

describe('RT-2: a rotated refresh token presented again revokes the connection', () => {
  it('refuses the reuse and kills the current pair', async () => {
    const first = await connect();
    const second = (await refreshWith(service, PUB, first.refresh_token)).json as Pair;
    const reuse = await refreshWith(service, PUB, first.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.json.error).toBe('invalid_grant');
    expect((await refreshWith(service, PUB, second.refresh_token)).json.error).toBe('invalid_grant');
    expect(await works(second.access_token)).toBe(false);
  });
});

describe('RT-3: concurrent refreshes of one token: at most one succeeds', () => {
  it('five at once give one 200, and afterwards no token of the connection works', async () => {
    const first = await connect();
    const answers = await Promise.all(Array.from({ length: 5 }, () => refreshWith(service, PUB, first.refresh_token)));
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of answers.filter((a) => a.status !== 200)) expect(loser.json.error).toBe('invalid_grant');
    expect(await works(winners[0]!.json.access_token)).toBe(false);
    expect((await refreshWith(service, PUB, winners[0]!.json.refresh_token)).status).toBe(400);
  });
});

describe("RT-4: another client's refresh token is refused without revoking", () => {
  it('EVIL is refused; PUB refreshes afterwards', async () => {
    const first = await connect();
    const stolen = await refreshWith(service, EVIL, first.refresh_token);
    expect(stolen.status).toBe(400);
    expect(stolen.json.error).toBe('invalid_grant');
    expect(await works(first.access_token)).toBe(true);
    expect((await refreshWith(service, PUB, first.refresh_token)).status).toBe(200);
  });
});

describe('RT-5: refreshing cannot widen the scope; it may narrow one token', () => {
  it('read grant asking for write is invalid_scope', async () => {
    const readOnly = await connect({ scope: 'tickets:read' });
    const wider = await refreshWith(service, PUB, readOnly.refresh_token, { scope: 'tickets:read tickets:write' });
    expect(wider.status).toBe(400);
    expect(wider.json.error).toBe('invalid_scope');
  });

  it('read+write grant narrowed to read once, then read+write again without scope', async () => {
    const full = await connect();
    const narrowed = await refreshWith(service, PUB, full.refresh_token, { scope: 'tickets:read' });
    expect(narrowed.json.scope).toBe('tickets:read');
    expect((await me(service, narrowed.json.access_token)).json.agent.access).toBe('read');
    const again = await refreshWith(service, PUB, narrowed.json.refresh_token);
    expect(again.json.scope).toBe('tickets:read tickets:write');
    expect((await me(service, again.json.access_token)).json.agent.access).toBe('write');
  });
});

describe('RT-6: refreshing cannot move the token to another resource', () => {
  it('answers invalid_target for a different resource', async () => {
    const pair = await connect({ resource: `${W}/mcp` });
    for (const resource of [`${W}/api`, 'https://evil.test/mcp']) {
      const response = await refreshWith(service, PUB, pair.refresh_token, { resource });
      expect(response.status).toBe(400);
      expect(response.json.error).toBe('invalid_target');
    }
    expect((await refreshWith(service, PUB, pair.refresh_token, { resource: `${W}/mcp` })).status).toBe(200);
  });
});

describe('RT-7: a refresh token lasts thirty days from its last use', () => {
  it('works after 29 days, and not 30 days and a second after that use', async () => {
    const pair = await connect();
    const day = 24 * 3600 * 1000;
    try {
      offset = 29 * day;
      const later = await refreshWith(service, PUB, pair.refresh_token);
      expect(later.status).toBe(200);
      offset = 29 * day + 30 * day + 1000;
      expect((await refreshWith(service, PUB, later.json.refresh_token)).json.error).toBe('invalid_grant');
    } finally {
      offset = 0;
    }
  });
});

describe('RT-8 and RS-3: token types come from the stored record', () => {
  it('an access token or a code is not a refresh token, and a refresh token is not a bearer token', async () => {
    const pair = await connect();
    expect((await refreshWith(service, PUB, pair.access_token)).json.error).toBe('invalid_grant');
    const flow = await obtainCode(service, { client: PUB, browser });
    expect((await refreshWith(service, PUB, flow.code)).json.error).toBe('invalid_grant');
    expect((await me(service, pair.refresh_token)).status).toBe(401);
  });
});

describe('RT-9: a member who can no longer use agents loses their connections', () => {
  it('refresh is invalid_grant and the access token 401 once the member is deactivated', async () => {
    const dev = await loggedIn(service, 'dev2');
    const pair = await connect({ browser: dev });
    expect(await works(pair.access_token)).toBe(true);
    await applyWorkspace(service.db, parseWorkspaceYaml(workspaceWithDevTwo(false), 'test workspace'));
    expect(await works(pair.access_token)).toBe(false);
    expect((await refreshWith(service, PUB, pair.refresh_token)).json.error).toBe('invalid_grant');
  });
});

describe('RT-10: clients authenticate on refresh', () => {
  it('a confidential client needs its secret; a public one its client_id', async () => {
    const pair = await connect({ client: CONF, redirectUri: 'https://app.example.org/cb' });
    const anonymous = await refreshWith(service, CONF, pair.refresh_token);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error).toBe('invalid_client');
    expect((await refreshWith(service, CONF, pair.refresh_token, { client_secret: CONF.client_secret! })).status).toBe(200);
    const publicPair = await connect();
    const noId = await send(service, 'POST', '/oauth/token', {
      form: { grant_type: 'refresh_token', refresh_token: publicPair.refresh_token },
    });
    expect(noId.status).toBe(401);
    expect(noId.json.error).toBe('invalid_client');
  });
});

describe('RT-11: a revocation racing a refresh leaves no valid token', () => {
  it('after both settle, nothing of the connection works', async () => {
    const pair = await connect();
    const [refreshed] = await Promise.all([
      refreshWith(service, PUB, pair.refresh_token),
      send(service, 'POST', '/oauth/revoke', { form: { token: pair.refresh_token, client_id: PUB.client_id } }),
    ]);
    expect(await works(pair.access_token)).toBe(false);
    if (refreshed.status === 200) {
      expect(await works(refreshed.json.access_token)).toBe(false);
      expect((await refreshWith(service, PUB, refreshed.json.refresh_token)).status).toBe(400);
    }
  });
});

describe('RS-1: tokens only in the Authorization header', () => {
  it('refuses a query-string access_token', async () => {
    const pair = await connect();
    expect((await send(service, 'GET', `/api/v1/me?access_token=${pair.access_token}`)).status).toBe(401);
  });
});
