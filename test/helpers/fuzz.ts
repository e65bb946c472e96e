import { sql, type Kysely } from 'kysely';
import type { Operation } from '../../src/core/operation.ts';
import { buildToolset, type ToolEntry } from '../../src/surfaces/mcp/tools.ts';
import { registry } from '../../src/modules/index.ts';
import type { DB } from '../../src/storage/schema.ts';
import { postMcp, request as rpc } from '../mcp/mcp-client.ts';
import type { TestService } from './service.ts';

/**
 * Fuzzing operations from their own declarations (the schemas the OpenAPI document and the MCP
 * tools are built from): wrong types, missing and extra fields, boundary numbers, odd Unicode,
 * blank strings, dates at and past the edges of the years 0001–9999, input nested thousands of
 * levels deep, malformed JSON and wrong content types. Seeded: the same seed sends the same cases.
 */

/** mulberry32: a small, well-known seeded generator. */
export function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}
export type Random = ReturnType<typeof generator>;

/** A generator of its own for each operation and door, so adding one changes no other's cases. */
export const seedFor = (seed: number, name: string) => seed ^ [...name].reduce((h, c) => Math.imul(h, 31) + c.charCodeAt(0), 7);

export const ODD_TEXT = [
  '',
  ' ',
  'a'.repeat(20_000),
  '\u0000',
  'x\ud800y',
  '😀'.repeat(300),
  '\u202eevil',
  'e\u0301\u0301\u0301',
  '<script>alert(1)</script>',
  "'; drop table tickets; --",
  '../../etc/passwd',
  '%00',
  'NaN',
  '-1',
  '1e309',
  'null',
  '{"a":1}',
];
export const BLANKS = ['', ' ', '   ', '\t', '\n', '\u00a0'];
/** Dates and times at and past the edges of what the service holds, in the forms requests use. */
export const EXTREME_DATES = [
  '0001-01-01',
  '9999-12-31',
  '0000-12-31',
  '10000-01-01',
  '0001-01-01T00:00',
  '9999-12-31T23:59',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:59.999999-12:00',
  '0001-01-01T00:00:00+14:00',
  '2026-02-29',
  '2028-02-29T24:00',
  '23:59',
  '00:00',
  '99:99',
];
export const EXTREME_ZONES = ['Etc/GMT+12', 'Pacific/Kiritimati', 'Europe/Berlin', 'US/Pacific-New', 'Mars/Olympus', '+01:00', 'UTC'];
// biome-ignore lint/correctness/noPrecisionLoss: 2^53 + 1 is there to test how a number past exact integers is answered
export const ODD_NUMBERS = [0, -1, 1.5, 2147483647, 2147483648, -2147483649, 9007199254740993, 1e308, -0];
export const ODD_VALUES: unknown[] = [...ODD_TEXT, ...ODD_NUMBERS, true, false, null, [], {}, [1, 'a', null], { nested: { deep: ['x'] } }];
export const ODD_PATH = [
  '%2F',
  '..',
  '%00',
  '%F0%9F%98%80',
  'a'.repeat(2000),
  '-1',
  '1e23',
  '2147483648',
  '%C0%AE',
  'null',
  '%20',
  '%09',
  'ATR-1%2F..',
];

/** An array nested `levels` deep around `inner`, built without recursion. */
export function nested(levels: number, inner: unknown = 'x'): unknown {
  let value = inner;
  for (let i = 0; i < levels; i += 1) value = [value];
  return value;
}

/** Any odd value: of the pools above, or input nested far deeper than the service takes. */
function oddValue(random: Random): unknown {
  const roll = random.next();
  if (roll < 0.35) return random.pick(ODD_VALUES);
  if (roll < 0.6) return random.pick(EXTREME_DATES);
  if (roll < 0.75) return random.pick(BLANKS);
  if (roll < 0.85) return random.pick(EXTREME_ZONES);
  return nested(random.pick([33, 500, 3000]));
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  format?: string;
}
export const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as JsonSchema;

/** A plausible value for a schema, so a case can change one field and keep the others sensible. */
export function plausible(schema: JsonSchema | undefined): unknown {
  if (!schema) return 'x';
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return plausible(schema.anyOf[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date') return '2026-11-16';
      return schema.format === 'date-time' ? '2026-11-16T09:00:00Z' : 'Fuzzed value';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return null;
  }
}

/**
 * Values a field, a query parameter or a path parameter may well take in the workspace (by its
 * name), so that cases reach past the lookups into the rules behind them.
 */
export type Hints = Record<string, readonly unknown[]>;

function good(name: string, schema: JsonSchema | undefined, random: Random, hints: Hints): unknown {
  const hinted = hints[name];
  return hinted ? random.pick(hinted) : plausible(schema);
}

/**
 * One change that makes a case odd, to fields that are otherwise good: the dates at the edges,
 * one field odd, one the operation does not take (often nested 3,000 deep) — or none, so that a
 * share of the cases is one the operation takes and the rules behind the lookups are reached.
 */
type Properties = Record<string, JsonSchema>;
type Values = Record<string, unknown>;

function oddOne(properties: Properties, random: Random, into: Values, extra: string): string {
  const names = Object.keys(properties);
  const roll = random.next();
  if (roll < 0.3 && extremeMoments(properties, random, into)) return 'dates at the edges';
  if (roll < 0.65 && names.length) {
    const name = random.pick(names);
    into[name] = oddValue(random);
    return name;
  }
  if (roll < 0.75) {
    into[extra] = random.next() < 0.5 ? nested(3000) : oddValue(random);
    return `${extra}, which it does not take`;
  }
  return 'good';
}

/** Fields and parameters that hold a date or a time, a zone, or a length of time, by name. */
const DATE_NAMES = /^(start|end|from|to|occurred_at|due_at|started_at|due_date|start_date|end_date|done_at)$/;
const ZONE_NAMES = /^(timezone)$/;
const LENGTH_NAMES = /^(duration|time_spent)$/;
// the edges themselves, and one step past each, in the forms that overflow once in UTC
const EDGES = [
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59',
  '9999-12-31',
  '0001-01-01T00:00',
  '0001-01-01',
  '0000-12-31',
  '10000-01-01',
  '23:59',
];
const DAY_EDGES = ['0001-01-01', '9999-12-31', '0000-12-31', '10000-01-01'];
const CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'multipart/form-data'];

/**
 * Now and then every date, zone and length of a request at once at or past the edges (a start in
 * 9999 with a duration, a local end in the far west): one odd field at a time seldom meets the
 * others it must be combined with to overflow.
 */
function extremeMoments(properties: Properties, random: Random, into: Values): boolean {
  const names = Object.keys(properties);
  const dated = names.filter((name) => DATE_NAMES.test(name));
  if (dated.length === 0) return false;
  const name = random.pick(dated);
  // a day's field gets days (a time there is refused by its schema, before any rule is reached)
  into[name] = random.pick(properties[name]?.format === 'date' ? DAY_EDGES : EDGES);
  for (const zone of names.filter((n) => ZONE_NAMES.test(n))) {
    if (random.next() < 0.6) into[zone] = random.pick(EXTREME_ZONES);
  }
  for (const length of names.filter((n) => LENGTH_NAMES.test(n))) {
    if (random.next() < 0.5) into[length] = random.pick(['1h', '2d']);
  }
  return true;
}

export interface RestCase {
  path: string;
  headers: Record<string, string>;
  payload?: string;
  note: string;
}

/** One REST request for an operation: path, query string and body, some of it odd. */
export function restCase(op: Operation, random: Random, hints: Hints = {}): RestCase {
  const body = op.body ? plain(op.body) : null;
  const query = plain(op.query);
  let path = op.path.replace(/:(\w+)/g, (_m, name: string) => {
    if (random.next() < 0.85 && hints[name]) return encodeURIComponent(String(random.pick(hints[name]!)));
    return random.pick(ODD_PATH);
  });
  const queryValues: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(query.properties ?? {})) {
    if (random.next() < 0.4) queryValues[name] = good(name, schema, random, hints);
  }
  const value: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(body?.properties ?? {})) {
    const chance = (body?.required ?? []).includes(name) ? 0.9 : 0.3;
    if (random.next() < chance) value[name] = good(name, schema, random, hints);
  }
  // the odd change goes to the body where there is one, else to the query string
  const note = body
    ? oddOne(body.properties ?? {}, random, value, random.pick(['extra', '__proto__', 'constructor', '\u0000', 'z']))
    : oddOne(query.properties ?? {}, random, queryValues, 'unknown_parameter');
  const params = new URLSearchParams();
  for (const [name, given] of Object.entries(queryValues)) {
    params.set(name, typeof given === 'string' ? given : JSON.stringify(given));
  }
  if (params.size) path += `?${params}`;
  const headers: Record<string, string> = {};
  if (!body) return { path, headers, note };

  let payload = JSON.stringify(value);
  headers['content-type'] = 'application/json';
  const shape = random.next();
  if (shape < 0.05) {
    payload = payload.slice(0, Math.max(1, payload.length - 3));
    return { path, headers, payload, note: 'malformed JSON' };
  }
  if (shape < 0.08) {
    headers['content-type'] = random.pick(CONTENT_TYPES);
    return { path, headers, payload, note: `content type ${headers['content-type']}` };
  }
  if (shape < 0.1) {
    return { path, headers, payload: random.pick(['[]', '"text"', '42', 'null', '']), note: 'body not an object' };
  }
  return { path, headers, payload, note };
}

const toolset = buildToolset(registry);

/** The MCP tool of an operation, with its arguments as tools/list shows them. */
export function toolOf(op: Operation): ToolEntry | undefined {
  return op.tool === null ? undefined : toolset.byName.get(op.tool);
}

/** One tools/call's arguments for a tool: its own arguments, good but for one odd change (or none). */
export function toolArguments(entry: ToolEntry, random: Random, hints: Hints = {}): { args: Values; note: string } {
  const schema = plain(entry.definitions.current.inputSchema);
  const args: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const chance = (schema.required ?? []).includes(name) ? 0.9 : 0.35;
    if (random.next() < chance) args[name] = good(name, property, random, hints);
  }
  const note = oddOne(schema.properties ?? {}, random, args, random.pick(['extra', 'z']));
  return { args, note };
}

/** What a tools/call answered: an error result's text, whether it was one, and whether it failed inside. */
export async function callFuzzedTool(service: TestService, token: string, name: string, args: Record<string, unknown>) {
  const reply = await postMcp(service, rpc('tools/call', { name, arguments: args }), { token });
  const result = reply.body?.result as { isError?: boolean; content?: { text: string }[] } | undefined;
  const text = result?.content?.[0]?.text ?? reply.text.slice(0, 200);
  const internal = reply.status >= 500 || reply.body?.error !== undefined || /^Something went wrong on our side/.test(text);
  return { status: reply.status, refused: result?.isError === true, internal, text };
}

/** Every table of the workspace but tokens (reads stamp last_used_at), for digests. */
export async function dataTables(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE'
      and table_name not like 'kysely_%' and table_name <> 'tokens'
    order by table_name`.execute(db);
  return rows.map((r) => r.name);
}

/**
 * Every table's content as one digest: equal before and after, nothing was changed. Rows are
 * summed, not sorted and joined, as their order does not matter: a few times faster.
 */
export async function digest(db: Kysely<DB>, tables: readonly string[]): Promise<string> {
  const parts = tables.map(
    (name) => sql`
      select ${name} as name, count(*) || ':' || coalesce(sum(hashtextextended(x::text, 0)::numeric), 0) as hash
      from ${sql.table(name)} x`,
  );
  const { rows } = await sql<{ name: string; hash: string }>`${sql.join(parts, sql` union all `)}`.execute(db);
  return rows.map((r) => `${r.name}:${r.hash}`).join(',');
}

export interface FuzzTarget {
  service: TestService;
  token: string;
  hints: Hints;
}

export interface FuzzRun {
  /** What is fuzzed, for the titles. */
  title: string;
  operations: readonly Operation[];
  /** Cases per operation and door. */
  cases: number;
  seed: number;
  /** The service, a token that may do everything, and the values its workspace names. */
  target: () => FuzzTarget;
}

/**
 * One test per operation: `cases` REST requests and `cases` tool calls, each answered with the
 * error envelope (or an error result) when refused, never a 5xx or an internal error, and a
 * refused change leaves every table as it was.
 */
type It = (name: string, test: () => Promise<void>, timeout?: number) => void;

export function fuzzOperations(run: FuzzRun, it: It): void {
  for (const op of run.operations) {
    const named = `${op.method} ${op.path}${op.tool ? ` and ${op.tool}` : ''}`;
    it(`${named}: never a 5xx; a refusal changes nothing`, async () => {
      const { service, token, hints } = run.target();
      const tables = op.access === 'write' ? await dataTables(service.db) : [];
      let state: string | null = null;
      const before = async () => (op.access === 'write' ? (state ??= await digest(service.db, tables)) : null);
      const failures: string[] = [];
      const answers = new Map<string, number>();
      const count = (answer: string) => answers.set(answer, (answers.get(answer) ?? 0) + 1);
      const checkRefusal = async (where: string, was: string | null) => {
        if (was === null) return;
        const now = await digest(service.db, tables);
        if (now !== was) failures.push(`${where}: a refusal changed the database`);
        state = now;
      };

      const random = generator(seedFor(run.seed, `rest ${op.name}`));
      for (let i = 0; i < run.cases; i += 1) {
        const fuzz = restCase(op, random, hints);
        const was = await before();
        const reply = await service.app.inject({
          method: op.method,
          url: `/api/v1${fuzz.path}`,
          headers: { authorization: `Bearer ${token}`, ...fuzz.headers },
          ...(fuzz.payload !== undefined ? { payload: fuzz.payload } : {}),
        });
        const sent = `${op.method} /api/v1${fuzz.path.slice(0, 160)} ${fuzz.payload?.slice(0, 160) ?? ''}`;
        const where = `${sent} (${fuzz.note}) → ${reply.statusCode}`;
        count(`REST ${reply.statusCode}`);
        if (reply.statusCode >= 500) failures.push(`${where}: ${reply.body.slice(0, 200)}`);
        if (reply.statusCode >= 400) {
          const body = reply.json() as { error?: { code?: unknown; message?: unknown } };
          if (typeof body.error?.code !== 'string' || typeof body.error?.message !== 'string') {
            failures.push(`${where}: not the envelope: ${reply.body.slice(0, 200)}`);
          }
          await checkRefusal(where, was);
        } else state = null;
      }

      const tool = toolOf(op);
      if (tool) {
        const random = generator(seedFor(run.seed, `mcp ${op.name}`));
        for (let i = 0; i < run.cases; i += 1) {
          const { args, note } = toolArguments(tool, random, hints);
          const was = await before();
          const answer = await callFuzzedTool(service, token, tool.name, args);
          const where = `${tool.name} ${JSON.stringify(args).slice(0, 160)} (${note})`;
          count(answer.refused ? 'MCP refused' : 'MCP answered');
          if (answer.internal) failures.push(`${where}: ${answer.status} ${answer.text}`);
          if (answer.refused) await checkRefusal(where, was);
          else state = null;
        }
      }
      // FUZZ_VERBOSE=1 shows how far the cases got: how many answered, how many were refused
      if (process.env.FUZZ_VERBOSE) {
        console.log(
          `${op.name}: ${[...answers]
            .sort()
            .map(([answer, n]) => `${answer} ×${n}`)
            .join(', ')}`,
        );
      }
      if (failures.length) throw new Error(`${failures.length} failures (seed ${run.seed}):\n${failures.join('\n')}`);
    }, 60_000);
  }
}
