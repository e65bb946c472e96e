import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresServerUrl } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

// Issue 15: what every connection of the service's pool is set to on PostgreSQL.
const serverUrl = postgresServerUrl();

describe.runIf(serverUrl !== null)('the service\'s PostgreSQL sessions: UTC, and no JIT compilation', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it('every pooled connection runs in UTC with JIT off, whatever the server\'s defaults', async () => {
    // more at once than one connection can take, so that several of the pool's connections answer
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        service.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ zone: string; jit: string; pid: number }>`
            select current_setting('TimeZone') as zone, current_setting('jit') as jit, pg_backend_pid() as pid, pg_sleep(0.05)`.execute(trx);
          return rows[0]!;
        }),
      ),
    );
    expect(new Set(answers.map((a) => a.pid)).size).toBeGreaterThan(1);
    for (const answer of answers) expect({ zone: answer.zone, jit: answer.jit }).toEqual({ zone: 'UTC', jit: 'off' });
  });
});
