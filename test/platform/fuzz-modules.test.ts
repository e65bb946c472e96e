import { afterAll, beforeAll, describe, it } from 'vitest';
import { registry } from '../../src/modules/index.ts';
import { fuzzOperations, type FuzzTarget, type Hints } from '../helpers/fuzz.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

// Every operation of the knowledge base, time tracking and the CRM fuzzed through REST and MCP on
// the demo workspace, with dates at and past the edges of the years 0001–9999, blank names and
// input nested thousands of levels deep (helpers/fuzz.ts): never a 5xx or an internal error, and
// a refused change leaves every table as it was. The hints below are good values, so that cases
// reach past the lookups into the rules. FUZZ_SEED=<n> replays a run; FUZZ_CASES=<n> sets the
// cases per operation and door; FUZZ_VERBOSE=1 shows how the cases were answered.

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const CASES = Number(process.env.FUZZ_CASES ?? 10);

let service: TestService;
let token: string;
const hints: Record<'knowledge' | 'time' | 'crm', Hints> = { knowledge: {}, time: {}, crm: {} };

const get = async (path: string) => (await service.request('GET', `/api/v1${path}`, { token })).body;
const post = async (path: string, body: unknown) => (await service.request('POST', `/api/v1${path}`, { token, body })).body;

async function knowledgeHints(): Promise<Hints> {
  // ENG's pages most, as ENG is the space named most
  const pages = [
    ...['welcome', 'onboarding', 'architecture', 'modules', 'runbook-deploys', 'salary-bands', 'sprint-14-review'],
    ...['legacy-auth-notes', 'holidays', 'rest', 'customer-faq'],
  ];
  return {
    space: ['ENG', 'ENG', 'ENG', 'eng', 'HANDBOOK', 'HANA', 'API-DOCS'],
    page: pages,
    parent: pages,
    before: pages,
    after: pages,
    title: ['Fuzzed page', 'Welcome to Atrium engineering'],
    body: ['See [[welcome]] and [[ENG:architecture]].'],
    query: ['architecture', 'deploy runbook', 'holidays'],
    version: [1, 2, 3],
  };
}

async function timeHints(): Promise<Hints> {
  // the fuzzer's own activities, finished and one running, and others' (which it may see, not change)
  const ids: string[] = [];
  const logged = { duration: '1h', project: 'ATR', customer: 'Northwind Traders', tags: ['review'] };
  for (let day = 10; day < 16; day += 1) {
    ids.push((await post('/activities', { ...logged, start: `2026-11-${day}T09:00:00Z` })).id);
  }
  ids.push((await post('/activities', { start: '2026-11-17T09:00:00Z', ticket: 'ATR-2' })).id);
  const others = (await get('/activities?member=Marco%20Rossi&limit=5')).activities as { id: string }[];
  const days = ['2026-11-01', '2026-11-16', '2026-11-30'];
  return {
    id: [...ids, ...others.map((a) => a.id)],
    project: ['ATR', 'HELP'],
    customer: ['Northwind Traders', 'Contoso Health'],
    ticket: ['ATR-1', 'ATR-2', 'HELP-1'],
    member: ['me', 'Marco Rossi', 'Lena Fischer'],
    phase: ['Northwind 2026 Q4', 'Contoso onboarding', 'Northwind 2026 Q3'],
    start: ['2026-11-18T09:00:00Z', '2026-11-18T09:00', '2026-11-18'],
    end: ['2026-11-18T10:00:00Z', '10:30', '2026-11-18T17:00'],
    duration: ['1h', '30m', '2d', '0m', '999999h'],
    timezone: ['Europe/Berlin', 'America/New_York', 'UTC'],
    from: days,
    to: days,
    group_by: ['day', 'project,member', 'phase', 'tag,week', 'month'],
    tag: ['review', 'meeting'],
    tags: [['review'], []],
  };
}

async function crmHints(): Promise<Hints> {
  const contacts = ((await get('/contacts?limit=6')).contacts as { id: string }[]).map((c) => c.id);
  const acme = (await get('/interactions?company=Acme%20GmbH')).interactions as { id: string }[];
  const interactions = acme.map((i) => i.id);
  const companies = ['Acme GmbH', 'Globex Corporation', 'Initech', 'Umbrella Labs'];
  return {
    id: [...contacts, ...companies, ...interactions],
    contact: contacts,
    company: companies,
    ticket: ['SALES-1', 'SALES-2', 'ATR-1', 'HELP-1'],
    owner: ['me', 'Diego Álvarez', 'Sam Okafor'],
    assignee: ['me', 'Diego Álvarez', 'Hana Sato'],
    name: ['Fuzzed Name', 'Acme GmbH', 'initech'],
    subject: ['Fuzzed subject'],
    address: ['fuzz.one@example.com', 'katrin.vogel@acme.example', 'KATRIN.VOGEL@acme.example'],
    email: ['fuzz.two@example.com', 'tom.baker@initech.example'],
    number: ['+1 555 0100'],
    phone: ['+49 711 555 0199'],
    occurred_at: ['2026-11-18T09:00:00Z', '2026-11-18T09:00'],
    due_at: ['2026-12-01T09:00:00+01:00', '2026-12-01T09:00'],
    timezone: ['Europe/Berlin', 'UTC'],
    duration: ['30m', '1h 15m', '0m'],
    q: ['acme', 'katrin', 'globex.example'],
    domains: [['fuzz.example'], []],
    kind: ['note', 'call', 'task'],
  };
}

beforeAll(async () => {
  service = await startTestService({ workspace: '../../examples/demo-workspace.yaml', rateLimit: 1_000_000 });
  token = await service.token('admin@example.com', 'write', 'fuzzer');
  hints.knowledge = await knowledgeHints();
  hints.time = await timeHints();
  hints.crm = await crmHints();
}, 120_000);
afterAll(() => service?.close());

for (const [module, title] of [
  ['knowledge', 'knowledge-base'],
  ['time', 'time-tracking'],
  ['crm', 'CRM'],
] as const) {
  describe(`fuzz: every ${title} operation, REST and MCP, ${CASES} cases each (seed ${SEED})`, () => {
    const target = (): FuzzTarget => ({ service, token, hints: hints[module] });
    const operations = registry.operations.filter((op) => op.module === module);
    fuzzOperations({ title, operations, cases: CASES, seed: SEED, target }, it);
  });
}
