import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../src/modules/index.ts';
import type { Operation } from '../../src/core/operation.ts';
import { dataTables, digest, generator, plain, plausible, seedFor } from '../helpers/fuzz.ts';
import { ODD_PATH, ODD_TEXT, ODD_VALUES } from '../helpers/fuzz.ts';
import type { Random } from '../helpers/fuzz.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

// ADR 0013: every operation fuzzed from its own declaration (the schemas the OpenAPI
// document is built from) — wrong types, missing and extra fields, boundary numbers, long and odd
// Unicode, malformed JSON, wrong content types, odd path parameters. Never a 5xx, always the error
// envelope, and a refused request changes nothing (a digest of the database before and after).
// Seeded and reproducible: FUZZ_SEED=<n> replays a run; FUZZ_CASES=<n> sets the cases per operation.

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const CASES = Number(process.env.FUZZ_CASES ?? 30);

/** Values a path parameter of the demo workspace may well name, so cases reach past the lookups. */
const REAL_PATH: Record<string, string[]> = {
  key: ['ATR-1', 'HELP-1', 'SALES-1'],
  project: ['ATR', 'HELP', 'SALES'],
  number: ['1', '2'],
  board: ['1', '2'],
  sprint: ['Sprint%2014', 'Sprint%2015'],
  request_type: ['billing-question', 'report-problem'],
};

interface Case {
  path: string;
  headers: Record<string, string>;
  payload?: string;
  note: string;
}

function makeCase(op: Operation, random: Random): Case {
  const body = op.body ? plain(op.body) : null;
  const query = plain(op.query);
  let path = op.path.replace(/:(\w+)/g, (_m, name: string) =>
    random.next() < 0.6 ? random.pick(REAL_PATH[name] ?? ['1']) : random.pick(ODD_PATH),
  );
  const params = new URLSearchParams();
  for (const [name, schema] of Object.entries(query.properties ?? {})) {
    if (random.next() < 0.4) params.set(name, String(random.next() < 0.5 ? plausible(schema) : random.pick(ODD_VALUES)));
  }
  if (random.next() < 0.1) params.set('unknown_parameter', random.pick(ODD_TEXT));
  if (params.size) path += `?${params}`;
  const headers: Record<string, string> = {};
  if (!body) return { path, headers, note: 'query' };

  const value: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(body.properties ?? {})) {
    if ((body.required ?? []).includes(name) ? random.next() < 0.9 : random.next() < 0.3) value[name] = plausible(schema);
  }
  const names = Object.keys(body.properties ?? {});
  const roll = random.next();
  let note = 'body';
  if (names.length && roll < 0.6) {
    const name = random.pick(names);
    value[name] = random.pick(ODD_VALUES);
    note = `/${name}`;
  } else if (roll < 0.7) {
    value[random.pick(['extra', '__proto__', 'constructor', '\u0000'])] = random.pick(ODD_VALUES);
    note = 'extra field';
  }
  let payload = JSON.stringify(value);
  headers['content-type'] = 'application/json';
  const shape = random.next();
  if (shape < 0.06) {
    payload = payload.slice(0, Math.max(1, payload.length - 3));
    note = 'malformed JSON';
  } else if (shape < 0.1) {
    headers['content-type'] = random.pick([
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=utf-16',
      'multipart/form-data',
    ]);
    note = `content type ${headers['content-type']}`;
  } else if (shape < 0.13) {
    payload = random.pick(['[]', '"text"', '42', 'null', '']);
    note = 'body not an object';
  }
  return { path, headers, payload, note };
}

let service: TestService;
let token: string;
let tables: string[];

beforeAll(async () => {
  service = await startTestService({ workspace: '../../examples/demo-workspace.yaml' });
  token = await service.token('admin@example.com', 'write', 'fuzzer');
  tables = await dataTables(service.db);
}, 120_000);
afterAll(() => service?.close());

describe(`fuzz: every operation, ${CASES} cases each from its declaration (seed ${SEED})`, () => {
  const failures: string[] = [];
  let sent = 0;

  for (const op of registry.operations) {
    it(`${op.method} ${op.path}: never a 5xx, always the envelope, a refused request changes nothing`, async () => {
      const random = generator(seedFor(SEED, op.name));
      const mine: string[] = [];
      const fail = (message: string) => {
        mine.push(message);
        failures.push(message);
      };
      for (let i = 0; i < CASES; i += 1) {
        const fuzz = makeCase(op, random);
        const before = op.access === 'write' ? await digest(service.db, tables) : null;
        const reply = await service.app.inject({
          method: op.method,
          url: `/api/v1${fuzz.path}`,
          headers: { authorization: `Bearer ${token}`, ...fuzz.headers },
          ...(fuzz.payload !== undefined ? { payload: fuzz.payload } : {}),
        });
        sent += 1;
        const where = `${op.method} /api/v1${fuzz.path.slice(0, 120)} (${fuzz.note}) → ${reply.statusCode}`;
        if (reply.statusCode >= 500) fail(`${where}: ${reply.body.slice(0, 200)}`);
        if (reply.statusCode >= 400) {
          const body = reply.json() as { error?: { code?: unknown; message?: unknown } };
          if (typeof body.error?.code !== 'string' || typeof body.error?.message !== 'string')
            fail(`${where}: not the envelope: ${reply.body.slice(0, 200)}`);
          if (before !== null && (await digest(service.db, tables)) !== before) {
            fail(`${where}: a refused request changed the database`);
          }
        }
      }
      expect(mine).toEqual([]);
    });
  }

  it('prints what it sent', () => {
    console.log(`fuzz: seed ${SEED}, ${sent} requests over ${registry.operations.length} operations, ${failures.length} failures`);
    expect(failures).toEqual([]);
  });
});
