import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSwitch, type SettingSwitch, type SwitchableModule } from '../../src/core/settings.ts';
import type { Operation } from '../../src/core/operation.ts';
import { registry } from '../../src/modules/index.ts';
import { buildToolset, type ToolEntry } from '../../src/surfaces/mcp/tools.ts';
import type { TestService } from '../helpers/service.ts';
import { postMcp, request as rpc } from '../mcp/mcp-client.ts';
import { samplesFor } from '../mcp/samples.ts';
import { exchange, obtainCode, startListeningService } from '../oauth/support.ts';

// ADR 0007: the rules every operation keeps whoever asks, generated from the registry —
// operation × token (personal read/write, OAuth read/write) × door (REST, MCP) × switch (none, REST
// off, MCP off, the operation's module off). Persona rules (who may do what in a project) are the
// modules' policy tables, tested in their own folders. Prints the count of cases and failures.

type Access = 'pat-read' | 'pat-write' | 'oauth-read' | 'oauth-write';
type Door = 'rest' | 'mcp';
type Switch = 'none' | 'rest_api' | 'mcp' | 'module';

interface Outcome {
  status: number;
  code: string | null;
}

let service: TestService;
const tokens = {} as Record<Access, string>;
const toolset = buildToolset(registry);
const entryOf = (op: Operation): ToolEntry | undefined => toolset.entries.find((e) => e.op === op);

beforeAll(async () => {
  // every token makes a few hundred requests here: the per-token limit is not what this tests
  service = await startListeningService({ rateLimit: 100_000 });
  tokens['pat-read'] = await service.token('ada@example.com', 'read', 'matrix reader');
  tokens['pat-write'] = await service.token('ada@example.com', 'write', 'matrix writer');
  for (const access of ['read', 'write'] as const) {
    const flow = await obtainCode(service, { access, scope: access === 'read' ? 'tickets:read' : 'tickets:read tickets:write' });
    tokens[`oauth-${access}`] = (await exchange(service, flow)).json.access_token;
  }
}, 120_000);
afterAll(() => service?.close());

/** The REST request of an operation's first sample (or an empty one): path parameters filled, GET arguments as the query. */
function restRequest(op: Operation): { path: string; body?: Record<string, unknown> } {
  const entry = entryOf(op);
  const args = entry ? (samplesFor(entry.name)[0]?.args ?? {}) : {};
  let path = op.path;
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [argument, value] of Object.entries(args)) {
    const target = entry?.arguments.get(argument);
    if (!target) continue;
    if (target.part === 'params') path = path.replace(`:${target.name}`, encodeURIComponent(String(value)));
    else if (target.part === 'query') query.append(target.name, String(value));
    else body[target.name] = value;
  }
  path = path.replace(/:\w+/g, 'CORE');
  return { path: `/api/v1${path}${query.size ? `?${query}` : ''}`, ...(op.method === 'GET' ? {} : { body }) };
}

async function viaRest(op: Operation, access: Access): Promise<Outcome> {
  const { path, body } = restRequest(op);
  const reply = await service.request(op.method, path, { token: tokens[access], body });
  return { status: reply.status, code: reply.status >= 400 ? reply.body.error.code : null };
}

/** An MCP call as an outcome: the HTTP refusal, or the tool result (an error result counts by its sentence). */
async function viaMcp(op: Operation, access: Access): Promise<(Outcome & { sentence?: string }) | null> {
  const entry = entryOf(op);
  if (!entry) return null; // a REST operation the spec gives no tool
  const args = samplesFor(entry.name)[0]?.args ?? {};
  const reply = await postMcp(service, rpc('tools/call', { name: entry.name, arguments: args }), { token: tokens[access] });
  if (reply.status !== 200) return { status: reply.status, code: reply.body.error.code };
  const result = reply.body.result;
  return { status: 200, code: result.isError ? 'tool_error' : null, sentence: result.isError ? result.content[0].text : undefined };
}

const moduleOf = (op: Operation): SwitchableModule | null =>
  op.module === 'core' || op.module === 'tickets' ? null : (op.module as SwitchableModule);

/** What the spec demands whatever the operation's input: null when only the operation itself decides. */
function demanded(
  op: Operation,
  access: Access,
  door: Door,
  switched: Switch,
): { status: number; code?: string; sentence?: RegExp } | null {
  if (switched === 'rest_api' && door === 'rest') return { status: 403, code: 'feature_disabled' };
  if (switched === 'mcp' && door === 'mcp') return { status: 403, code: 'feature_disabled' };
  if (switched === 'module' && moduleOf(op)) {
    return door === 'rest' ? { status: 403, code: 'feature_disabled' } : { status: 200, code: 'tool_error', sentence: /switched off/ };
  }
  if (op.access === 'write' && access.endsWith('read')) {
    return door === 'rest' ? { status: 403, code: 'forbidden' } : { status: 200, code: 'tool_error', sentence: /read access only/ };
  }
  return null;
}

const ACCESSES: Access[] = ['pat-read', 'pat-write', 'oauth-read', 'oauth-write'];
const SWITCHES: Switch[] = ['none', 'rest_api', 'mcp', 'module'];

async function withSwitch<T>(op: Operation, switched: Switch, work: () => Promise<T>): Promise<T> {
  const names: SettingSwitch[] = switched === 'none' ? [] : switched === 'module' ? (moduleOf(op) ? [moduleOf(op)!] : []) : [switched];
  for (const name of names) await setSwitch(service.db, name, false);
  try {
    return await work();
  } finally {
    for (const name of names) await setSwitch(service.db, name, true);
  }
}

describe('permission matrix: operation × token × door × switch, generated from the registry (spec 5, 5.6, 7, 4.8)', () => {
  let cases = 0;
  const failures: string[] = [];

  for (const op of registry.operations) {
    it(`${op.name}`, async () => {
      const mine: string[] = [];
      for (const switched of SWITCHES) {
        if (switched === 'module' && !moduleOf(op)) continue;
        await withSwitch(op, switched, async () => {
          for (const access of ACCESSES) {
            const rest = await viaRest(op, access);
            const mcp = await viaMcp(op, access);
            const doors: [Door, Outcome & { sentence?: string }][] = [['rest', rest]];
            if (mcp) doors.push(['mcp', mcp]);
            for (const [door, got] of doors) {
              cases += 1;
              const want = demanded(op, access, door, switched);
              const where = `${op.name} ${access} ${door} switch:${switched} → ${got.status} ${got.code ?? ''}`;
              if (want) {
                const sentence = 'sentence' in got ? got.sentence : undefined;
                if (got.status !== want.status || got.code !== want.code || (want.sentence && !want.sentence.test(sentence ?? ''))) {
                  mine.push(`${where}; the spec demands ${want.status} ${want.code ?? ''}`);
                }
              } else if (got.status >= 500) {
                mine.push(`${where}; never a 5xx`);
              }
            }
            // Where nothing outside the operation decides, both doors agree on success or refusal.
            if (mcp && !demanded(op, access, 'rest', switched) && !demanded(op, access, 'mcp', switched)) {
              if (rest.status >= 400 !== (mcp.code === 'tool_error'))
                mine.push(`${op.name} ${access} switch:${switched}: REST ${rest.status} but MCP ${mcp.code ?? 'success'}`);
            }
          }
        });
      }
      failures.push(...mine);
      expect(mine).toEqual([]);
    });
  }

  it('prints the count of cases and failures', () => {
    console.log(`permission matrix: ${cases} cases over ${registry.operations.length} operations, ${failures.length} failures`);
    expect(cases).toBeGreaterThan(registry.operations.length * ACCESSES.length * 3);
  });
});
