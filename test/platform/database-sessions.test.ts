import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresServerUrl } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

// ADR 0008: what every connection of the service's pool is set to on PostgreSQL.
const serverUrl = postgresServerUrl();

describe.runIf(serverUrl !== null)("the service's PostgreSQL sessions: UTC, no JIT compilation, scans from the first page", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("every pooled connection runs in UTC with JIT off, whatever the server's defaults", async () => {
    // more at once than one connection can take, so that several of the pool's connections answer
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        service.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ zone: string; jit: string; synchronized: string; pid: number }>`
            select current_setting('TimeZone') as zone, current_setting('jit') as jit,
                   current_setting('synchronize_seqscans') as synchronized, pg_backend_pid() as pid, pg_sleep(0.05)`.execute(trx);
          return rows[0]!;
        }),
      ),
    );
    expect(new Set(answers.map((a) => a.pid)).size).toBeGreaterThan(1);
    for (const answer of answers) {
      expect({ zone: answer.zone, jit: answer.jit, synchronized: answer.synchronized }).toEqual({
        zone: 'UTC',
        jit: 'off',
        synchronized: 'off',
      });
    }
  });
});

// A search with a query ranks the first 250 matches a scan meets. A scan synchronized with the
// previous one starts where that one stopped (on tables over a quarter of the buffer cache), so
// the same search answered different tickets each time; the data that shows it is too large for
// a test, so the setting that prevents it is what is checked, on the engine under test.
describe('the same search twice answers the same tickets: scans are not synchronized', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("the service's sessions start every sequential scan at the table's first page", async () => {
    const { rows } = await sql<{ synchronized: string }>`select current_setting('synchronize_seqscans') as synchronized`.execute(
      service.db,
    );
    expect(rows[0]!.synchronized).toBe('off');
  });
});
