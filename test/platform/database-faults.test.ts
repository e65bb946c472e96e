import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromDatabase } from '../../src/core/database-errors.ts';
import { postgresServerUrl } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

// ADR 0017: a node outlives its database's hiccups. While the database is away requests
// get 503 in the spec's envelope; the node serves again when it returns, without a restart, and
// nothing it acknowledged is lost.

describe('database faults: what the driver reports becomes an answer a client can act on', () => {
  it('a terminated or refused connection is 503 `unavailable` with Retry-After', () => {
    for (const fault of [
      { code: '57P01', message: 'terminating connection due to administrator command' },
      { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' },
      { code: 'ECONNRESET', message: 'read ECONNRESET' },
      new Error('Connection terminated unexpectedly'),
    ]) {
      const answer = fromDatabase(fault);
      expect(answer?.status).toBe(503);
      expect(answer?.code).toBe('unavailable');
      expect(answer?.headers['Retry-After']).toBe('5');
    }
  });

  it('a value the database cannot store is 422; anything else stays an internal error', () => {
    expect(fromDatabase({ code: '22003', message: 'integer out of range' })?.status).toBe(422);
    expect(fromDatabase({ code: '23505', message: 'duplicate key' })).toBeNull();
    expect(fromDatabase(new Error('something else'))).toBeNull();
  });
});

const serverUrl = postgresServerUrl();
if (serverUrl !== null) {
  describe('database faults: the service’s connections terminated while clients create tickets (PostgreSQL)', () => {
    let service: TestService;
    let token: string;
    let admin: pg.Client;
    let database: string;

    beforeAll(async () => {
      service = await startTestService();
      token = await service.token('lee@example.com');
      database = (await sql<{ name: string }>`select current_database() as name`.execute(service.db)).rows[0]!.name;
      admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
    });
    afterAll(async () => {
      await admin?.end();
      await service?.close();
    });

    const create = (summary: string) => service.request('POST', '/api/v1/tickets', { token, body: { project: 'CORE', summary } });

    it('answers 201 or 503 in the envelope while its connections are cut, keeps every acknowledged ticket, and serves again', async () => {
      const acknowledged: string[] = [];
      const statuses = new Map<number, number>();
      const unexpected: string[] = [];
      let running = true;
      const client = async (n: number) => {
        for (let i = 0; running; i += 1) {
          const reply = await create(`fault ${n}-${i}`);
          statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
          if (reply.status === 201) acknowledged.push(reply.body.key);
          else if (reply.status !== 503 || reply.body.error?.code !== 'unavailable' || reply.headers['retry-after'] !== '5')
            unexpected.push(reply.text);
        }
      };
      const clients = [0, 1, 2, 3].map(client);
      for (let round = 0; round < 6; round += 1) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [
          database,
        ]);
      }
      running = false;
      await Promise.all(clients);

      expect(unexpected).toEqual([]);
      expect(statuses.get(503) ?? 0).toBeGreaterThan(0);

      // serving again within seconds, on the same process
      let served = false;
      for (let attempt = 0; attempt < 50 && !served; attempt += 1) {
        served = (await create('after the fault')).status === 201;
        if (!served) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(served).toBe(true);

      const stored = await service.db
        .selectFrom('tickets')
        .select('key')
        .where('key', 'in', acknowledged.length ? acknowledged : ['none'])
        .execute();
      expect(stored.length).toBe(acknowledged.length);
      console.log(
        `database faults: ${acknowledged.length} acknowledged, ${stored.length} stored, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
      );
    });
  });
}
