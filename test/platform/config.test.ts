import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.ts';

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('configuration: every variable has a default', () => {
  it('starts on port 8080 of 127.0.0.1 with ./data, PGlite, info logs and the demo workspace', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:8080',
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      databasePooler: 'none',
      databaseDirectUrl: null,
      pgliteSharedBuffers: null,
      logLevel: 'info',
      demo: true,
      trustedProxies: [],
      metricsToken: null,
      mail: null,
    });
  });

  it('derives PUBLIC_URL from PORT when it is not given', () => {
    expect(loadConfig({ PORT: '9090' }).publicUrl).toBe('http://localhost:9090');
  });

  it('takes each variable as given', () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://atrium.example.com/',
      DATA_DIR: '/tmp/atrium-data',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/atrium',
      LOG_LEVEL: 'WARN',
      PGLITE_SHARED_BUFFERS: ' 48MB ',
      ATRIUM_DEMO: 'off',
      TRUSTED_PROXIES: ' 10.0.0.1, 10.1.0.0/16 ,::1,Loopback',
    });
    expect(config).toEqual({
      port: 0,
      host: '0.0.0.0',
      publicUrl: 'https://atrium.example.com',
      dataDir: '/tmp/atrium-data',
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/atrium',
      databasePooler: 'none',
      databaseDirectUrl: null,
      pgliteSharedBuffers: '48MB',
      logLevel: 'warn',
      demo: false,
      trustedProxies: ['10.0.0.1', '10.1.0.0/16', '::1', 'loopback'],
      metricsToken: null,
      mail: null,
    });
  });

  it('treats empty values as unset', () => {
    const database = { DATABASE_URL: '', DATABASE_POOLER: '', DATABASE_DIRECT_URL: '' };
    const others = { PORT: '', HOST: '', PUBLIC_URL: '', DATA_DIR: '', LOG_LEVEL: '', PGLITE_SHARED_BUFFERS: '' };
    expect(loadConfig({ ...others, ...database })).toEqual(loadConfig({}));
  });
});

describe('configuration: DATABASE_POOLER and DATABASE_DIRECT_URL say how DATABASE_URL reaches PostgreSQL', () => {
  it('takes a pooler in transaction mode and the direct URL beside it', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://atrium@pgbouncer:6432/atrium',
      DATABASE_POOLER: ' Transaction ',
      DATABASE_DIRECT_URL: 'postgres://atrium@db:5432/atrium',
    });
    expect(config).toMatchObject({
      databasePooler: 'transaction',
      databaseDirectUrl: 'postgres://atrium@db:5432/atrium',
    });
  });

  it('takes a pooler without a direct URL (live updates are then off, which the node says)', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://atrium@pgbouncer/atrium', DATABASE_POOLER: 'transaction' });
    expect(config.databaseDirectUrl).toBeNull();
  });

  it('refuses a direct URL without a pooler, and a pooler without DATABASE_URL, saying why', () => {
    expect(refusal({ DATABASE_URL: 'postgres://db/atrium', DATABASE_DIRECT_URL: 'postgres://db/atrium' })).toBe(
      'DATABASE_DIRECT_URL: set DATABASE_POOLER=transaction too; without a pooler DATABASE_URL is already direct',
    );
    expect(refusal({ DATABASE_POOLER: 'transaction' })).toBe(
      'DATABASE_POOLER: set DATABASE_URL too (they describe how it reaches PostgreSQL)',
    );
  });
});

describe('configuration: a bad value stops start-up with one line naming the variable', () => {
  it.each([
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '-1' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'localhost:8080' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'ftp://example.com' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'https://example.com/?x=1' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/atrium' }],
    ['DATABASE_POOLER', { DATABASE_URL: 'postgres://db/atrium', DATABASE_POOLER: 'statement' }],
    ['DATABASE_POOLER', { DATABASE_POOLER: 'transaction' }],
    ['DATABASE_DIRECT_URL', { DATABASE_URL: 'postgres://pooler/atrium', DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: 'db:5432' }],
    ['DATABASE_DIRECT_URL', { DATABASE_URL: 'postgres://db/atrium', DATABASE_DIRECT_URL: 'postgres://db/atrium' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['ATRIUM_DEMO', { ATRIUM_DEMO: 'maybe' }],
    ['TRUSTED_PROXIES', { TRUSTED_PROXIES: 'true' }],
    ['TRUSTED_PROXIES', { TRUSTED_PROXIES: '10.0.0.1, proxy.example' }],
    ['TRUSTED_PROXIES', { TRUSTED_PROXIES: '10.0.0.0/33' }],
    ['PGLITE_SHARED_BUFFERS', { PGLITE_SHARED_BUFFERS: 'lots' }],
    ['PGLITE_SHARED_BUFFERS', { PGLITE_SHARED_BUFFERS: '32' }],
    ['PGLITE_SHARED_BUFFERS', { PGLITE_SHARED_BUFFERS: '32MiB' }],
    ['PGLITE_SHARED_BUFFERS', { PGLITE_SHARED_BUFFERS: '64kB' }],
    ['PGLITE_SHARED_BUFFERS', { PGLITE_SHARED_BUFFERS: '2GB' }],
    ['PGLITE_SHARED_BUFFERS', { PGLITE_SHARED_BUFFERS: '16MB; fsync=off' }],
  ])('%s: %j', (variable, env) => {
    const message = refusal(env);
    expect(message.startsWith(`${variable}: `)).toBe(true);
    expect(message).not.toContain('\n');
  });

  it('PGLITE_SHARED_BUFFERS: says what it takes', () => {
    expect(refusal({ PGLITE_SHARED_BUFFERS: '2GB' })).toBe(
      'PGLITE_SHARED_BUFFERS: "2GB" is not a size from 128kB to 1GB (write it like 32MB)',
    );
  });

  it('never repeats a database password in the message', () => {
    expect(refusal({ DATABASE_URL: 'mysql://user:s3cret@localhost/atrium' })).not.toContain('s3cret');
  });
});

describe('configuration: PGLITE_SHARED_BUFFERS takes a size in kB, MB or GB', () => {
  it.each([
    ['16MB', '16MB'],
    ['16mb', '16MB'],
    ['128kB', '128kB'],
    ['1 GB', '1GB'],
    ['0032MB', '32MB'],
  ])('%j is passed to PGlite as %j', (given, passed) => {
    expect(loadConfig({ PGLITE_SHARED_BUFFERS: given }).pgliteSharedBuffers).toBe(passed);
  });
});
