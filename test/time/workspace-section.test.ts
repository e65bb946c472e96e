import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { WorkspaceFileError } from '../../src/workspace/errors.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { FIXTURES, type TestService } from '../helpers/service.ts';
import { api, startTime, type TimeTokens } from './support.ts';

type File = {
  time: { organizations: Record<string, unknown>[]; phases: Record<string, unknown>[]; activities: Record<string, unknown>[] };
} & Record<string, unknown>;

let service: TestService;
let t: TimeTokens;
const fixture = () => parseWorkspaceYaml(fs.readFileSync(new URL('time-workspace.yaml', FIXTURES), 'utf8')) as File;

beforeAll(async () => {
  ({ service, t } = await startTime());
});
afterAll(() => service.close());

async function refusal(change: (file: File) => void): Promise<string> {
  const file = fixture();
  change(file);
  const before = await api(service)(t.ada, 'GET', '/phases');
  const error = await applyWorkspace(service.db, file).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkspaceFileError);
  expect((await api(service)(t.ada, 'GET', '/phases')).body).toEqual(before.body);
  return (error as WorkspaceFileError).message;
}

describe('workspace file `time`: organizations, phases and seed activities, applied idempotently', () => {
  it('writes nothing when the same file is applied again', async () => {
    const report = await applyWorkspace(service.db, fixture());
    expect(report.changed).toBe(false);
  });

  it('updates a phase in place by name (closing it locks its activities)', async () => {
    const file = fixture();
    file.time.phases[0]!.closed = true;
    file.time.phases[0]!.rate = '125.5';
    expect((await applyWorkspace(service.db, file)).changed).toBe(true);
    const phase = (await api(service)(t.ada, 'GET', '/phases?customer=Acme%20GmbH')).body.phases[0];
    expect(phase).toMatchObject({ name: 'Acme 2026 H2', rate: '125.50' });
    const made = await api(service)(t.dev1, 'POST', '/activities', { start: '2026-08-03T09:00:00Z', duration: '1h', project: 'CORE' });
    expect(made.body.locked).toBe(true);
    await applyWorkspace(service.db, fixture());
  });
});

describe('workspace file `time`: a mistake names its place and changes nothing', () => {
  it.each([
    [
      'a phase ending before it starts',
      (f: File) => (f.time.phases[0]!.end_date = '2026-06-30'),
      'time.phases[0].end_date: 2026-06-30 is before start_date 2026-07-01',
    ],
    [
      'an unknown customer',
      (f: File) => (f.time.phases[0]!.customer = 'Initech'),
      'time.phases[0].customer: no organization "Initech"; declare it under time.organizations',
    ],
    ['a rate without currency', (f: File) => delete f.time.phases[0]!.currency, 'time.phases[0].currency: rate and currency go together'],
    [
      'an organization twice',
      (f: File) => f.time.organizations.push({ name: 'acme gmbh' }),
      'time.organizations[2].name: organization "acme gmbh" is declared twice (also time.organizations[0])',
    ],
    [
      'a seed activity that would run',
      (f: File) => delete f.time.activities[0]!.duration,
      'time.activities[0]: a seed activity needs end or duration (a seed never runs)',
    ],
    [
      'an unknown member',
      (f: File) => (f.time.activities[0]!.member = 'nobody@example.com'),
      expect.stringMatching(/^time\.activities\[0\]\.member: /),
    ],
    [
      'a bad time zone',
      (f: File) => (f.time.activities[0]!.timezone = 'Europe/Atlantis'),
      'time.activities[0].timezone: "Europe/Atlantis" is not an IANA time zone (e.g. Europe/Berlin)',
    ],
  ])('%s', async (_name, change, message) => {
    expect(await refusal(change)).toEqual(message);
  });
});
