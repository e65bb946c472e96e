import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/storage/database.ts';
import { pendingMigrations } from '../../src/storage/migrate.ts';
import { migrations } from '../../src/storage/migrations/index.ts';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { prepareWorkspace } from '../../src/workspace/bootstrap.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { adminQuery, postgresServerUrl } from '../helpers/database.ts';
import { FIXTURES, type TestService } from '../helpers/service.ts';
import { startTwoNodes } from '../helpers/two-nodes.ts';
import { exchange, me, obtainCode, refreshWith, send } from '../oauth/support.ts';

// ADR 0011: two nodes (two apps, two connection pools) on one PostgreSQL database behave as
// one service — except the rate limit, which the spec counts per node. (One active sprint per
// board across two nodes is held by test/boards/concurrency.test.ts.)

// Runs in the PostgreSQL pass of CI: PGlite is one process with one data folder by design.
const serverUrl = postgresServerUrl();

describe.runIf(serverUrl !== null)('two nodes on one PostgreSQL: one service', () => {
  let first: TestService;
  let node2: TestService;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ first, second: node2, close } = await startTwoNodes({ rateLimit: 5 }));
  });
  afterAll(() => close?.());

  it('exchanges at one node an OAuth code issued by the other', async () => {
    const flow = await obtainCode(first);
    const answer = await exchange(node2, flow);
    expect(answer.status, answer.text).toBe(200);
    expect((await me(first, answer.json.access_token)).status).toBe(200);
  });

  it('lets exactly one of two concurrent refreshes of one refresh token win, across nodes', async () => {
    const flow = await obtainCode(first);
    const tokens = (await exchange(first, flow)).json;
    const [a, b] = await Promise.all([
      refreshWith(first, flow.client, tokens.refresh_token),
      refreshWith(node2, flow.client, tokens.refresh_token),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    expect([a, b].find((r) => r.status === 400)!.json.error).toBe('invalid_grant');
  });

  it('refuses at once, on the other node, a token revoked on one', async () => {
    const flow = await obtainCode(first);
    const tokens = (await exchange(first, flow)).json;
    expect((await me(node2, tokens.access_token)).status).toBe(200);
    const revoked = await send(first, 'POST', '/oauth/revoke', { form: { token: tokens.access_token, client_id: flow.client.client_id } });
    expect(revoked.status).toBe(200);
    expect((await me(node2, tokens.access_token)).status).toBe(401);
  });

  // Each node holds a token's grants in memory under config_version (auth/bearer.ts): the
  // workspace file's change bumps it, and the other node reads it with the token on every request.
  it('refuses at once, on the other node, a member whose role the workspace file took away on one', async () => {
    const file = fs.readFileSync(new URL('workspace.yaml', FIXTURES), 'utf8');
    const viewer = '      - { role: Viewer, members: [vic@example.com] }\n';
    expect(file).toContain(viewer);
    const vic = await first.token('vic@example.com', 'read', 'viewer on two nodes');
    const project = (service: TestService) => service.request('GET', '/api/v1/projects/CORE', { token: vic });
    expect((await project(node2)).status).toBe(200);
    expect((await project(node2)).status).toBe(200);

    await applyWorkspace(first.db, parseWorkspaceYaml(file.replace(viewer, ''), 'workspace.yaml'));
    expect((await project(node2)).status).toBe(404);
    expect((await project(first)).status).toBe(404);

    await applyWorkspace(first.db, parseWorkspaceYaml(file, 'workspace.yaml'));
    expect((await project(node2)).status).toBe(200);
  });

  // A ticket's read carries the token's check in its own statement (auth/bearer.ts, DeferredTokenCheck).
  it('refuses at once, on the other node, a ticket read with a token revoked or a role taken away on one', async () => {
    const lee = await first.token('lee@example.com', 'write', 'ticket maker on two nodes');
    const created = await first.request('POST', '/api/v1/tickets', { token: lee, body: { project: 'CORE', summary: 'Read on two nodes' } });
    expect(created.status).toBe(201);
    const read = (token: string) => node2.request('GET', `/api/v1/tickets/${created.body.key}`, { token });

    const flow = await obtainCode(first);
    const tokens = (await exchange(first, flow)).json;
    expect([(await read(tokens.access_token)).status, (await read(tokens.access_token)).status]).toEqual([200, 200]);
    await send(first, 'POST', '/oauth/revoke', { form: { token: tokens.access_token, client_id: flow.client.client_id } });
    expect((await read(tokens.access_token)).status).toBe(401);

    const file = fs.readFileSync(new URL('workspace.yaml', FIXTURES), 'utf8');
    const viewer = '      - { role: Viewer, members: [vic@example.com] }\n';
    const vic = await first.token('vic@example.com', 'read', 'viewer reading a ticket on two nodes');
    expect([(await read(vic)).status, (await read(vic)).status]).toEqual([200, 200]);
    try {
      await applyWorkspace(first.db, parseWorkspaceYaml(file.replace(viewer, ''), 'workspace.yaml'));
      expect((await read(vic)).status).toBe(404);
    } finally {
      await applyWorkspace(first.db, parseWorkspaceYaml(file, 'workspace.yaml'));
    }
    expect((await read(vic)).status).toBe(200);
  });

  // A project's labels are held in memory under config_version too (projects' cachedProjectLabels):
  // a ticket that adds one bumps it.
  it('shows at once, on the other node, a label a ticket created on one added to its project', async () => {
    const lee = await first.token('lee@example.com', 'write', 'labels on two nodes');
    const labels = async () => (await node2.request('GET', '/api/v1/projects/CORE', { token: lee })).body.labels as string[];
    expect(await labels()).not.toContain('two-nodes');
    expect(await labels()).not.toContain('two-nodes');
    const created = await first.request('POST', '/api/v1/tickets', {
      token: lee,
      body: { project: 'CORE', summary: 'Labelled elsewhere', labels: ['two-nodes'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(await labels()).toContain('two-nodes');
  });

  it('counts the rate limit per node (spec 8: per token on each application node)', async () => {
    const token = await first.token('lee@example.com', 'read', 'limited');
    const onFirst = [];
    for (let i = 0; i < 6; i += 1) onFirst.push((await me(first, token)).status);
    expect(onFirst.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(onFirst[5]).toBe(429);
    expect((await me(node2, token)).status).toBe(200);
  });
});

// The CRM's roles are held per token under config_version too (crm/policy.ts).
describe.runIf(serverUrl !== null)('two nodes on one PostgreSQL: a CRM role taken away on one node is gone on the other at once', () => {
  let first: TestService;
  let node2: TestService;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ first, second: node2, close } = await startTwoNodes({ workspace: 'crm-workspace.yaml' }));
  });
  afterAll(() => close?.());

  it('refuses the CRM to a member on the other node once the workspace file took their CRM role away', async () => {
    const file = fs.readFileSync(new URL('crm-workspace.yaml', FIXTURES), 'utf8');
    const viewer = '    - { role: CRM viewer, members: [vic@example.com, cora@example.com] }\n';
    expect(file).toContain(viewer);
    const vic = await first.token('vic@example.com', 'read', 'CRM viewer on two nodes');
    const contacts = async (service: TestService) => (await service.request('GET', '/api/v1/contacts', { token: vic })).status;
    expect([await contacts(node2), await contacts(node2)]).toEqual([200, 200]);

    await applyWorkspace(
      first.db,
      parseWorkspaceYaml(file.replace(viewer, '    - { role: CRM viewer, members: [cora@example.com] }\n'), 'crm-workspace.yaml'),
    );
    expect(await contacts(node2)).toBe(403);
    expect(await contacts(first)).toBe(403);

    await applyWorkspace(first.db, parseWorkspaceYaml(file, 'crm-workspace.yaml'));
    expect(await contacts(node2)).toBe(200);
  });
});

describe.runIf(serverUrl !== null)(
  'several nodes starting at once on an empty PostgreSQL database: migrations and the workspace made once',
  () => {
    const name = `atrium_nodes_${randomBytes(4).toString('hex')}`;
    const nodes: Database[] = [];

    const admin = (query: string) => adminQuery(serverUrl!, query);

    afterAll(async () => {
      for (const node of nodes) await node.close();
      await admin(`drop database if exists ${name} with (force)`);
    });

    it('three nodes prepare the database together: each migration runs once, one node creates the workspace', async () => {
      await admin(`create database ${name}`);
      const url = new URL(serverUrl!);
      url.pathname = `/${name}`;
      for (let i = 0; i < 3; i++) nodes.push(await openDatabase({ engine: 'postgres', url: url.href }));
      const results = await Promise.all(nodes.map((node) => prepareWorkspace(node.db, { demo: false })));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      for (const node of nodes) expect(await pendingMigrations(node.db)).toEqual([]);
      const runs = await sql<{
        name: string;
        times: number;
      }>`select name, count(*)::int as times from kysely_migration group by name`.execute(nodes[0]!.db);
      expect(runs.rows.map((r) => r.name).sort()).toEqual(Object.keys(migrations).sort());
      expect(runs.rows.every((r) => r.times === 1)).toBe(true);
    });
  },
);
