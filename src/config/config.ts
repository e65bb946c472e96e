import net from 'node:net';
import path from 'node:path';

/**
 * How DATABASE_URL reaches PostgreSQL: directly (or through a pooler in session mode), or through a
 * pooler in transaction mode.
 */
export type DatabasePooler = 'none' | 'transaction';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  /**
   * DATABASE_POOLER: `transaction` when DATABASE_URL goes through a pooler in transaction mode
   * (PgBouncer's `pool_mode = transaction`); `none` otherwise.
   */
  databasePooler: DatabasePooler;
  /** DATABASE_DIRECT_URL: PostgreSQL itself, beside the pooler, for LISTEN (live updates) and migrations. */
  databaseDirectUrl: string | null;
  /**
   * PGLITE_SHARED_BUFFERS: the embedded engine's buffer cache (PostgreSQL's `shared_buffers`, e.g.
   * `32MB`); null keeps PGlite's own (128MB). Ignored on PostgreSQL, whose server sets its own.
   */
  pgliteSharedBuffers: string | null;
  logLevel: LogLevel;
  demo: boolean;
  /**
   * Proxies whose `X-Forwarded-For` is believed, so that per-address limits (OAuth endpoints, log-in
   * throttle) count the client, not the proxy: addresses, CIDR ranges, `loopback`, `linklocal`,
   * `uniquelocal`; empty trusts none.
   */
  trustedProxies: string[];
  /** METRICS_TOKEN: the bearer token a Prometheus scraper sends to /metrics; unset keeps /metrics closed. */
  metricsToken: string | null;
  /** SMTP_URL and MAIL_FROM: where notification emails go out; unset sends none (and queues none). */
  mail: { smtpUrl: string; from: string } | null;
}

export class ConfigError extends Error {}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export type Env = Record<string, string | undefined>;

function readPort(env: Env): number {
  const raw = env.PORT?.trim();
  if (raw === undefined || raw === '') return 8080;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(`PORT: "${raw}" is not a port number (0-65535)`);
  }
  return Number(raw);
}

function readPublicUrl(env: Env, port: number): string {
  const raw = env.PUBLIC_URL?.trim();
  if (!raw) return `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`PUBLIC_URL: "${raw}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`PUBLIC_URL: "${raw}" must start with http:// or https://`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`PUBLIC_URL: "${raw}" must not carry a query, fragment or credentials`);
  }
  return url.href.replace(/\/+$/, '');
}

function readDatabaseUrl(env: Env, name = 'DATABASE_URL'): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  if (!/^postgres(ql)?:\/\//.test(raw)) {
    throw new ConfigError(`${name}: must be a postgres:// or postgresql:// connection string`);
  }
  return raw;
}

const POOLERS: readonly DatabasePooler[] = ['none', 'transaction'];

type PoolerSettings = Pick<Config, 'databasePooler' | 'databaseDirectUrl'>;

function readPooler(env: Env, databaseUrl: string | null): PoolerSettings {
  const raw = env.DATABASE_POOLER?.trim().toLowerCase() || 'none';
  if (!(POOLERS as readonly string[]).includes(raw)) {
    throw new ConfigError(
      `DATABASE_POOLER: "${raw}" is not one of ${POOLERS.join(', ')} ` +
        '(transaction: DATABASE_URL goes through a pooler in transaction mode)',
    );
  }
  const databaseDirectUrl = readDatabaseUrl(env, 'DATABASE_DIRECT_URL');
  if (databaseUrl === null && (raw !== 'none' || databaseDirectUrl !== null)) {
    const variable = raw !== 'none' ? 'DATABASE_POOLER' : 'DATABASE_DIRECT_URL';
    throw new ConfigError(`${variable}: set DATABASE_URL too (they describe how it reaches PostgreSQL)`);
  }
  if (raw === 'none' && databaseDirectUrl !== null) {
    throw new ConfigError('DATABASE_DIRECT_URL: set DATABASE_POOLER=transaction too; without a pooler DATABASE_URL is already direct');
  }
  return { databasePooler: raw as DatabasePooler, databaseDirectUrl };
}

// PGlite is 32-bit WebAssembly: its whole memory, buffers included, must fit in 4 GiB; below 128kB
// PostgreSQL itself refuses to start (16 buffers of 8 kB).
const SHARED_BUFFERS_KIB = { min: 128, max: 1024 * 1024 };
// PostgreSQL spells its units kB, MB, GB and refuses any other case, so the value is respelt.
const MEMORY_UNITS: Record<string, { spelling: string; kib: number }> = {
  kb: { spelling: 'kB', kib: 1 },
  mb: { spelling: 'MB', kib: 1024 },
  gb: { spelling: 'GB', kib: 1024 * 1024 },
};

function readPgliteSharedBuffers(env: Env): string | null {
  const raw = env.PGLITE_SHARED_BUFFERS?.trim();
  if (!raw) return null;
  const [, amount = '', unitName = ''] = /^(\d+)\s*([kmg]b)$/i.exec(raw) ?? [];
  const unit = MEMORY_UNITS[unitName.toLowerCase()];
  const kib = unit ? Number(amount) * unit.kib : NaN;
  if (!unit || !(kib >= SHARED_BUFFERS_KIB.min && kib <= SHARED_BUFFERS_KIB.max)) {
    throw new ConfigError(`PGLITE_SHARED_BUFFERS: "${raw}" is not a size from 128kB to 1GB (write it like 32MB)`);
  }
  return `${Number(amount)}${unit.spelling}`;
}

function readLogLevel(env: Env): LogLevel {
  const raw = env.LOG_LEVEL?.trim().toLowerCase();
  if (!raw) return 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigError(`LOG_LEVEL: "${raw}" is not one of ${LOG_LEVELS.join(', ')}`);
  }
  return raw as LogLevel;
}

function readSwitch(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (['on', 'true', '1', 'yes'].includes(raw)) return true;
  if (['off', 'false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name}: "${raw}" is not on or off`);
}

const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const family = net.isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

// Trusting every hop (`true`) would let any client choose the address the limits count, so the
// proxies must be named.
function readTrustedProxies(env: Env): string[] {
  const entries = (env.TRUSTED_PROXIES ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  const wrong = entries.find((entry) => !isAddressOrRange(entry));
  if (wrong !== undefined) {
    throw new ConfigError(`TRUSTED_PROXIES: "${wrong}" is not an IP address, a CIDR range, loopback, linklocal or uniquelocal`);
  }
  return entries;
}

function readMail(env: Env, publicUrl: string): Config['mail'] {
  const raw = env.SMTP_URL?.trim();
  const from = env.MAIL_FROM?.trim();
  if (!raw) {
    if (from) throw new ConfigError('MAIL_FROM: set SMTP_URL too (there is nowhere to send mail from without it)');
    return null;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('SMTP_URL: not a URL; write it like smtp://user:password@mail.example.com:587 or smtps://…:465');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new ConfigError('SMTP_URL: must start with smtp:// or smtps://');
  if (from !== undefined && from !== '' && !/^[^<>@\s]+@[^<>@\s]+$|<[^<>@\s]+@[^<>@\s]+>$/.test(from)) {
    throw new ConfigError(`MAIL_FROM: "${from}" is not an address (atrium@example.com, or "Atrium <atrium@example.com>")`);
  }
  return { smtpUrl: raw, from: from || `Atrium <atrium@${new URL(publicUrl).hostname}>` };
}

function readMetricsToken(env: Env): string | null {
  const raw = env.METRICS_TOKEN?.trim();
  if (!raw) return null;
  if (raw.length < 16) throw new ConfigError('METRICS_TOKEN: use at least 16 characters (it guards /metrics)');
  return raw;
}

/** The only place that reads the environment; everything else receives a Config. */
export function loadConfig(env: Env = process.env): Config {
  const port = readPort(env);
  const host = env.HOST?.trim() || '127.0.0.1';
  const databaseUrl = readDatabaseUrl(env);
  return {
    port,
    host,
    publicUrl: readPublicUrl(env, port),
    dataDir: path.resolve(env.DATA_DIR?.trim() || './data'),
    databaseUrl,
    ...readPooler(env, databaseUrl),
    pgliteSharedBuffers: readPgliteSharedBuffers(env),
    logLevel: readLogLevel(env),
    demo: readSwitch(env, 'ATRIUM_DEMO', true),
    trustedProxies: readTrustedProxies(env),
    metricsToken: readMetricsToken(env),
    mail: readMail(env, readPublicUrl(env, port)),
  };
}
