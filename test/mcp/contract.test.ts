import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../src/modules/index.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { postMcp, request } from './mcp-client.ts';

const SPEC_OPERATIONS = new URL('../fixtures/shared/spec/operations.json', import.meta.url).pathname;
const SPEC_COVERAGE = new URL('../fixtures/shared/tools/spec-coverage.mjs', import.meta.url).pathname;

interface SpecOperation {
  tool: string | null;
  module: string;
  read: boolean;
  destructive: boolean;
  arguments: string[];
}

interface ListedTool {
  name: string;
  inputSchema: { properties: Record<string, unknown> };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

let service: TestService;
let writeToken: string;
let tools: ListedTool[];

beforeAll(async () => {
  service = await startTestService({ listen: true });
  writeToken = await service.token('ada@example.com', 'write');
  tools = (await postMcp(service, request('tools/list'), { token: writeToken })).body.result.tools;
});
afterAll(async () => service.close());

describe('contract: the full tool list for a write token is snapshotted (names, schemas, annotations)', () => {
  it('matches test/contract/mcp-tools.json (update with -u after a reviewed change)', async () => {
    await expect(`${JSON.stringify(tools, null, 2)}\n`).toMatchFileSnapshot('../contract/mcp-tools.json');
  });
});

describe('tools/list is context a model pays for on every connection: under 60 KB for a write token with every module on', () => {
  const LIMIT = 60_000;
  it(`is under ${LIMIT} bytes at every protocol version, printed per version and access`, async () => {
    const readToken = await service.token('ada@example.com', 'read');
    const sizes: string[] = [];
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']) {
      for (const [access, token] of [
        ['write', writeToken],
        ['read', readToken],
      ] as const) {
        const reply = await postMcp(service, request('tools/list'), { token, version });
        expect(reply.status).toBe(200);
        const bytes = Buffer.byteLength(reply.text);
        sizes.push(`${version} ${access}: ${bytes} bytes, ${reply.body.result.tools.length} tools`);
        expect(bytes, `${version} ${access}`).toBeLessThan(LIMIT);
      }
    }
    expect(tools.length).toBe(registry.operations.filter((op) => op.tool !== null).length);
    console.log(`tools/list sizes:\n${sizes.join('\n')}`);
  });
});

/**
 * Arguments that name a record of another module: a tool may leave them out until that module
 * lands (create_ticket's `request_type` needs the helpdesk, its `company` the CRM).
 */
const ARGUMENT_MODULES: Record<string, string> = { request_type: 'helpdesk', company: 'crm' };

const isPending = (argument: string, landed: ReadonlySet<string>) =>
  ARGUMENT_MODULES[argument] !== undefined && !landed.has(ARGUMENT_MODULES[argument]);

/** The spec's argument list of a tool, with "any create_x field" spelled out. */
function specArguments(op: SpecOperation, all: SpecOperation[], landed: ReadonlySet<string>): string[] {
  const names = new Set<string>();
  for (const argument of op.arguments) {
    const any = /^any (\w+) field$/.exec(argument);
    if (!any) {
      names.add(argument);
      continue;
    }
    for (const inherited of all.find((other) => other.tool === any[1])!.arguments) names.add(inherited);
  }
  return [...names].filter((name) => !isPending(name, landed)).sort();
}

describe('contract: every tool of the spec table whose module has landed exists with the spec arguments (spec 4.8)', () => {
  const spec = (JSON.parse(readFileSync(SPEC_OPERATIONS, 'utf8')) as { operations: SpecOperation[] }).operations;
  const landed = new Set<string>(registry.operations.map((op) => op.module));
  const expected = spec.filter((op) => op.tool !== null && landed.has(op.module));

  it('has landed modules to check', () => {
    expect(expected.length).toBeGreaterThan(0);
  });

  for (const op of expected) {
    it(`${op.tool} (${op.module})`, () => {
      const tool = tools.find((candidate) => candidate.name === op.tool);
      expect(tool, `tool ${op.tool} is missing`).toBeDefined();
      const offered = Object.keys(tool!.inputSchema.properties).filter((name) => !isPending(name, landed));
      expect(offered.sort()).toEqual(specArguments(op, spec, landed));
      expect(tool!.annotations.readOnlyHint).toBe(op.read);
      expect(tool!.annotations.destructiveHint).toBe(op.destructive);
      expect(tool!.annotations.openWorldHint).toBe(false);
    });
  }

  it('offers no tool the spec table does not name', () => {
    const named = new Set(spec.map((op) => op.tool));
    expect(tools.map((tool) => tool.name).filter((name) => !named.has(name))).toEqual([]);
  });

  it("passes the shared spec-coverage check: each landed tool offered with the spec's annotations", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [SPEC_COVERAGE, service.url, writeToken]);
    const rows = stdout.split('\n').filter((line) => / tool:(yes|no)/.test(line) && landed.has(line.split(/\s+/)[0]!));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((line) => line.includes('tool:no') || line.includes('annotations:WRONG'))).toEqual([]);
  });
});
