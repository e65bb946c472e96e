import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresServerUrl } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

// ADR 0022 (migration 0018): a NOTIFY serializes every committing transaction of the server, so a
// change announces itself only while some node listens for events, on a connection named
// `atrium events`. PostgreSQL only: PGlite is one process and always announces.

const serverUrl = postgresServerUrl();

describe.runIf(serverUrl !== null)('a change sends no NOTIFY while no node listens; it does once one listens', () => {
  let service: TestService;
  let token: string;
  let databaseUrl: string;
  const clients: pg.Client[] = [];
  const heard: string[] = [];

  const connect = async (applicationName: string) => {
    const client = new pg.Client({ connectionString: databaseUrl, application_name: applicationName });
    await client.connect();
    clients.push(client);
    return client;
  };
  const comment = (body: string) => service.request('POST', '/api/v1/tickets/CORE-1/comments', { token, body: { body } });
  /** Waits until a notification names the change's kind, or the time runs out. */
  const heardWithin = async (kind: string, ms: number) => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (heard.some((payload) => JSON.parse(payload).kind === kind)) return true;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return false;
  };

  beforeAll(async () => {
    service = await startTestService();
    token = await service.token('lee@example.com');
    await service.request('POST', '/api/v1/tickets', { token, body: { project: 'CORE', summary: 'Commented on' } });
    const name = (await sql<{ name: string }>`select current_database() as name`.execute(service.db)).rows[0]!.name;
    const url = new URL(serverUrl!);
    url.pathname = `/${name}`;
    databaseUrl = url.href;
    // a connection that listens without the name a node's listener has: it hears, but does not ask
    const eavesdropper = await connect('events test');
    eavesdropper.on('notification', (message) => heard.push(message.payload ?? ''));
    await eavesdropper.query('listen atrium_events');
  });
  afterAll(async () => {
    for (const client of clients) await client.end();
    await service?.close();
  });

  it('commits a comment without a NOTIFY while no connection is named `atrium events`', async () => {
    expect((await comment('No one is listening')).status).toBe(201);
    expect(await heardWithin('commented', 500)).toBe(false);
  });

  it('announces the next comment once a node listens', async () => {
    const node = await connect('atrium events');
    await node.query('listen atrium_events');
    expect((await comment('Someone is listening')).status).toBe(201);
    expect(await heardWithin('commented', 5000)).toBe(true);
  });
});
