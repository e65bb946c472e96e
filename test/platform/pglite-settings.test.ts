import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { startService, type RunningService } from '../../src/main.ts';

// Each test creates a cluster (initdb), about 10 s on a busy machine: more than vitest's default.
const CLUSTER_TIMEOUT_MS = 120_000;
const folders: string[] = [];
const services: RunningService[] = [];

afterEach(async () => {
  for (const service of services.splice(0)) await service.stop();
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

async function start(env: Record<string, string>): Promise<RunningService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-pglite-settings-'));
  folders.push(dataDir);
  const service = await startService(loadConfig({ DATA_DIR: dataDir, PORT: '0', ATRIUM_DEMO: 'off', LOG_LEVEL: 'silent', ...env }));
  services.push(service);
  return service;
}

async function sharedBuffers(service: RunningService): Promise<string> {
  const result = await service.database.pglite!.query<{ shared_buffers: string }>('show shared_buffers');
  return result.rows[0]!.shared_buffers;
}

describe("PGLITE_SHARED_BUFFERS sets the embedded engine's buffer cache", () => {
  it(
    "keeps PGlite's own 128MB when unset",
    async () => {
      expect(await sharedBuffers(await start({}))).toBe('128MB');
    },
    CLUSTER_TIMEOUT_MS,
  );

  it(
    'starts the engine with the size given',
    async () => {
      expect(await sharedBuffers(await start({ PGLITE_SHARED_BUFFERS: '16mb' }))).toBe('16MB');
    },
    CLUSTER_TIMEOUT_MS,
  );
});
