import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/core/execute.ts';
import { moduleSwitchedOff } from '../../src/core/execute.ts';
import { MODULE_HOSTS, MODULE_LABELS, MODULE_SWITCHES, readSettings, setSwitch } from '../../src/core/settings.ts';
import { registry } from '../../src/modules/index.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { moduleOperations, probeRegistry } from './probe-operations.ts';

let service: TestService;
let writer: string;
let reader: string;

beforeAll(async () => {
  service = await startTestService({ registry: probeRegistry });
  writer = await service.token('lee@example.com', 'write');
  reader = await service.token('lee@example.com', 'read');
});

afterAll(async () => {
  await service?.close();
});

/** A path of the operation with every parameter filled in. */
const concrete = (path: string) => `/api/v1${path.replace(/:\w+/g, 'CORE')}`;

describe('switches: the REST API switched off is 403 feature_disabled; back on, the same token works (spec 5.5)', () => {
  it('refuses every operation while off, saying it is the REST API, and answers again once on', async () => {
    expect((await service.request('GET', '/api/v1/me', { token: writer })).status).toBe(200);
    await setSwitch(service.db, 'rest_api', false);
    try {
      for (const op of registry.operations) {
        const reply = await service.request(op.method, concrete(op.path), { token: writer, body: op.method === 'GET' ? undefined : {} });
        expect(reply.status, op.name).toBe(403);
        expect(reply.body.error.code, op.name).toBe('feature_disabled');
        expect(reply.body.error.message, op.name).toMatch(/REST API/);
      }
    } finally {
      await setSwitch(service.db, 'rest_api', true);
    }
    const again = await service.request('GET', '/api/v1/me', { token: writer });
    expect(again.status).toBe(200);
    expect(again.body.user.name).toBe('Lee Lead');
  });

  it('still refuses an unknown token with 401 while off', async () => {
    await setSwitch(service.db, 'rest_api', false);
    try {
      expect((await service.request('GET', '/api/v1/me', { token: 'svc_pat_unknown' })).status).toBe(401);
    } finally {
      await setSwitch(service.db, 'rest_api', true);
    }
  });

  it('leaves the OpenAPI document and the metadata reachable while off', async () => {
    await setSwitch(service.db, 'rest_api', false);
    try {
      expect((await service.request('GET', '/api/v1/openapi.json')).status).toBe(200);
      expect((await service.request('GET', '/.well-known/oauth-protected-resource')).status).toBe(200);
    } finally {
      await setSwitch(service.db, 'rest_api', true);
    }
  });
});

describe('switches: a module switched off is 403 feature_disabled naming the module', () => {
  it.each(moduleOperations.map((op) => [op.module, op] as const))('%s', async (module, op) => {
    const settings = await readSettings(service.db);
    const wasOn = settings.modules[module as keyof typeof settings.modules];
    await setSwitch(service.db, module as (typeof MODULE_SWITCHES)[number], false);
    try {
      const off = await service.request('GET', concrete(op.path), { token: writer });
      expect(off.status).toBe(403);
      expect(off.body.error.code).toBe('feature_disabled');
      expect(off.body.error.message).toContain(MODULE_LABELS[module as (typeof MODULE_SWITCHES)[number]]);
      // Other modules are not affected (but those living on it: sprints live on boards).
      const other = moduleOperations.find(
        (o) => o.module !== module && MODULE_HOSTS[o.module as (typeof MODULE_SWITCHES)[number]] !== module,
      )!;
      await setSwitch(service.db, other.module as (typeof MODULE_SWITCHES)[number], true);
      expect((await service.request('GET', concrete(other.path), { token: writer })).status).toBe(200);
      await setSwitch(service.db, module as (typeof MODULE_SWITCHES)[number], true);
      const on = await service.request('GET', concrete(op.path), { token: writer });
      expect(on.status).toBe(200);
      expect(on.body).toEqual({ module });
    } finally {
      await setSwitch(service.db, module as (typeof MODULE_SWITCHES)[number], wasOn);
    }
  });

  it("refuses every operation of the service's own switchable modules while its module is off", async () => {
    const switchable = registry.operations.filter((op) => op.module !== 'core' && op.module !== 'tickets');
    for (const op of switchable) {
      const module = op.module as (typeof MODULE_SWITCHES)[number];
      const wasOn = (await readSettings(service.db)).modules[module];
      await setSwitch(service.db, module, false);
      try {
        const reply = await service.request(op.method, concrete(op.path), { token: writer, body: op.method === 'GET' ? undefined : {} });
        expect(reply.status, op.name).toBe(403);
        expect(reply.body.error.code, op.name).toBe('feature_disabled');
        expect(reply.body.error.message, op.name).toContain(MODULE_LABELS[module]);
      } finally {
        await setSwitch(service.db, module, wasOn);
      }
    }
  });

  it('never switches off core operations or tickets', async () => {
    const settings = await readSettings(service.db);
    const allOff: Principal['settings'] = {
      ...settings,
      modules: Object.fromEntries(MODULE_SWITCHES.map((m) => [m, false])) as Principal['settings']['modules'],
    };
    for (const op of registry.operations) {
      const off = moduleSwitchedOff(op, allOff);
      if (op.module === 'core' || op.module === 'tickets') expect(off, op.name).toBeNull();
      else expect(off?.code, op.name).toBe('feature_disabled');
    }
  });
});

describe('switches: a read token gets 403 forbidden on every change (spec 4, 5.3)', () => {
  const writes = probeRegistry.operations.filter((op) => op.access === 'write');

  it('is refused on every write operation of the registry, whatever the body', async () => {
    expect(writes.length).toBeGreaterThan(0);
    for (const op of writes) {
      for (const body of [{}, { title: 'A valid title' }, 'not json']) {
        const reply = await service.request(op.method, concrete(op.path), { token: reader, body });
        expect(reply.status, `${op.name} ${JSON.stringify(body)}`).toBe(403);
        expect(reply.body.error.code, op.name).toBe('forbidden');
      }
    }
  });

  it('reads with the same member and access read', async () => {
    const me = await service.request('GET', '/api/v1/me', { token: reader });
    expect(me.status).toBe(200);
    expect(me.body.agent.access).toBe('read');
  });

  it('lets a write token of the same member through', async () => {
    const reply = await service.request('POST', '/api/v1/probe/echo', { token: writer, body: { title: 'ok' } });
    expect(reply.status).toBe(200);
  });
});
