import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { WorkspaceFileError } from '../../src/workspace/errors.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { FIXTURES, startTestService, type TestService } from '../helpers/service.ts';
import { formsApi, portalKeys, tokensFor, type Tokens } from './support.ts';

type FormEntry = Record<string, unknown>;
type File = { projects: { key: string; kind: string; request_types?: FormEntry[] }[] } & Record<string, unknown>;

let service: TestService;
let t: Tokens;
const fixture = () => parseWorkspaceYaml(fs.readFileSync(new URL('helpdesk-workspace.yaml', FIXTURES), 'utf8')) as File;
const helpForms = (file: File) => file.projects[0]!.request_types!;

beforeAll(async () => {
  service = await startTestService({ workspace: 'helpdesk-workspace.yaml' });
  t = await tokensFor(service);
});
afterAll(() => service.close());

async function refusal(change: (file: File) => void): Promise<string> {
  const file = fixture();
  change(file);
  const before = await service.db.selectFrom('request_types').selectAll().orderBy('id').execute();
  const error = await applyWorkspace(service.db, file).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkspaceFileError);
  expect(await service.db.selectFrom('request_types').selectAll().orderBy('id').execute()).toEqual(before);
  return (error as WorkspaceFileError).message;
}

describe('workspace file `projects[].request_types`: applied idempotently', () => {
  it('writes nothing when the same file is applied again', async () => {
    const report = await applyWorkspace(service.db, fixture());
    expect(report.changed).toBe(false);
  });

  it('keeps forms made through the API after the file’s own, and puts the file’s forms first in its order', async () => {
    const api = formsApi(service);
    expect((await api.create(t.pia, { key: 'api-form', name: 'From the API', ticket_type: 'Question' })).status).toBe(201);
    expect((await api.order(t.pia, ['api-form'])).status).toBe(200);
    expect(await portalKeys(service, t.vic)).toEqual(['api-form', 'get-help', 'report-outage']);
    const file = fixture();
    helpForms(file).reverse();
    expect((await applyWorkspace(service.db, file)).changed).toBe(true);
    expect(await portalKeys(service, t.vic)).toEqual(['report-outage', 'get-help', 'api-form']);
    expect((await applyWorkspace(service.db, file)).changed).toBe(false);
  });

  it('updates a listed form in place, and a rename reaches the tickets raised through it', async () => {
    const ticket = await service.request('POST', '/api/v1/tickets', {
      token: t.abe,
      body: { project: 'HELP', summary: 'Raised', request_type: 'get-help' },
    });
    expect(ticket.status, ticket.text).toBe(201);
    const id = (await formsApi(service).get(t.vic, 'get-help')).body.id;
    const file = fixture();
    Object.assign(helpForms(file)[0]!, { name: 'Ask us', hidden: true });
    expect((await applyWorkspace(service.db, file)).changed).toBe(true);
    const form = (await formsApi(service).get(t.vic, 'get-help')).body;
    expect(form).toMatchObject({ id, name: 'Ask us', hidden: true });
    const read = await service.request('GET', `/api/v1/tickets/${ticket.body.key}`, { token: t.abe });
    expect(read.body.request_type).toBe('Ask us');
  });

  it('leaves a form the API retired retired unless the file says `archived`', async () => {
    expect((await formsApi(service).retire(t.pia, 'report-outage')).status).toBe(200);
    expect((await applyWorkspace(service.db, fixture())).changed).toBe(true);
    expect((await formsApi(service).get(t.vic, 'report-outage')).body.archived).toBe(true);
    const file = fixture();
    helpForms(file)[1]!.archived = false;
    await applyWorkspace(service.db, file);
    expect((await formsApi(service).get(t.vic, 'report-outage')).body.archived).toBe(false);
  });
});

describe('workspace file: a seed ticket may be raised through a form (`request_type`)', () => {
  it('gets the form’s name and, with type left out, its ticket type', async () => {
    const reply = await service.request('GET', '/api/v1/tickets/HELP-1', { token: t.abe });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ type: 'Incident', request_type: 'Report an outage' });
  });

  it('refuses a seed naming a form the project does not have', async () => {
    const message = await refusal((f) => {
      const help = f.projects[0] as unknown as { tickets: Record<string, unknown>[] };
      help.tickets.push({ number: 50, summary: 'Lost', request_type: 'nope' });
    });
    expect(message).toMatch(/^projects\[0\]\.tickets\[1\]\.request_type: no request type "nope"; active request types are/);
  });
});

describe('workspace file `projects[].request_types`: mistakes are named by their place in the file', () => {
  it('refuses forms in a project that is not a helpdesk project', async () => {
    expect(await refusal((f) => (f.projects[2]!.request_types = [{ key: 'x', name: 'X', ticket_type: 'Task' }]))).toMatch(
      /^projects\[2\]\.request_types: only helpdesk projects have request types; CORE is a software project/,
    );
  });

  it('refuses a key declared twice and two active forms of one name', async () => {
    expect(await refusal((f) => helpForms(f).push({ key: 'GET-HELP', name: 'Again', ticket_type: 'Question' }))).toMatch(
      /^projects\[0\]\.request_types\[2\]\.key: request type "GET-HELP" is declared twice/,
    );
    expect(await refusal((f) => helpForms(f).push({ key: 'again', name: 'get help', ticket_type: 'Question' }))).toMatch(
      /^projects\[0\]\.request_types\[2\]\.name: /,
    );
  });

  it('refuses an unknown ticket type, an unknown field and an optional summary', async () => {
    expect(await refusal((f) => (helpForms(f)[0]!.ticket_type = 'Bug'))).toMatch(
      /^projects\[0\]\.request_types\[0\]\.ticket_type: no ticket type "Bug"/,
    );
    expect(await refusal((f) => (helpForms(f)[1]!.fields = [{ field: 'colour' }]))).toMatch(
      /^projects\[0\]\.request_types\[1\]\.fields\[0\]\.field: no field "colour"; fields are "summary", "description", "priority", "impact", "asset_tag"/,
    );
    expect(await refusal((f) => (helpForms(f)[1]!.fields = [{ field: 'summary', displayed: false }]))).toMatch(
      /^projects\[0\]\.request_types\[1\]\.fields\[0\]: the summary is always displayed and required/,
    );
  });

  it('refuses a key with spaces through the schema', async () => {
    expect(await refusal((f) => (helpForms(f)[0]!.key = 'get help'))).toMatch(/^projects\[0\]\.request_types\[0\]\.key: /);
  });
});
